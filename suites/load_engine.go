package suites

import (
	"flag"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/servebench/servebench/fixtures/simengine"
)

// EngineKinds lists the engine kinds every contract may name; a kind given
// to RegisterEngine may be named too.
var EngineKinds = []string{"simengine", "vllm", "sglang", "tgi", "llamacpp", "ollama"}

// engine reads the engine section.
func (d *decoder) engine(n *yaml.Node) *EngineSpec {
	m := d.mapping(n, "engine", "kind", "image", "model", "args", "gpus", "env", "process", "starts")
	if m == nil {
		return nil
	}
	e := &EngineSpec{}
	if d.required(m, "kind") {
		e.Kind = d.str(m, "kind")
		if e.Kind != "" && !knownKind(e.Kind) && !registeredKind(e.Kind) {
			d.errorf(m.get("kind"), "engine.kind", "unknown engine %q (want one of %s, or a kind given to suites.RegisterEngine)", e.Kind, strings.Join(EngineKinds, ", "))
		}
	}
	e.Image = d.str(m, "image")
	e.Model = d.printable(m, "model")
	e.Args = d.strings(m, "args")
	e.Env = d.stringMap(m, "env")
	e.GPUs = d.gpus(m)
	e.Starts = d.integer(m, "starts", 1)
	if m.has("process") {
		e.Process = d.process(m.get("process"))
	}
	switch {
	case e.Kind == "simengine":
		if m.has("image") {
			d.errorf(m.get("image"), "engine.image", "the simulated engine runs in-process; it has no image")
		}
		if m.has("gpus") {
			d.errorf(m.get("gpus"), "engine.gpus", "the simulated engine needs no GPU")
		}
		if m.has("process") {
			d.errorf(m.get("process"), "engine.process", "the simulated engine runs in-process; it has no process section")
		}
		if err := simengineConfig(e, new(simengine.Config)); err != nil {
			d.errorf(m.get("args"), "engine.args", "%v", err)
		}
	case e.Kind == "ollama":
		if !m.has("model") {
			d.errorf(m.node, "engine.model", "required for engine ollama: the GGUF file to serve")
		}
		if m.has("image") && m.has("process") {
			d.errorf(m.get("process"), "engine.process", "give image (a container) or process (a local process), not both")
		}
	case knownKind(e.Kind):
		if m.has("image") && m.has("process") {
			d.errorf(m.get("process"), "engine.process", "give image (a container) or process (a local process), not both")
		}
		if !m.has("image") && !m.has("process") {
			d.errorf(m.node, "engine.image", "required for engine %s: the container image to run (or a process section)", e.Kind)
		}
		if !m.has("model") {
			d.errorf(m.node, "engine.model", "required for engine %s: the model to serve", e.Kind)
		}
	}
	return e
}

// process reads engine.process: binary, args and env of a local process.
func (d *decoder) process(n *yaml.Node) *EngineProcess {
	m := d.mapping(n, "engine.process", "binary", "args", "env")
	if m == nil {
		return nil
	}
	p := &EngineProcess{Binary: d.str(m, "binary"), Args: d.strings(m, "args"), Env: d.stringMap(m, "env")}
	if m.has("binary") && p.Binary == "" {
		d.errorf(m.get("binary"), "engine.process.binary", "empty; leave it out to use the engine's default executable")
	}
	return p
}

// gpus reads the number of GPUs to request: a count, or "all" (-1).
func (d *decoder) gpus(m *mapping) int {
	n := m.get("gpus")
	if n == nil {
		return 0
	}
	if n.Kind == yaml.ScalarNode && n.Value == "all" {
		return -1
	}
	return d.integer(m, "gpus", 0)
}

// knownKind reports whether kind is one of EngineKinds.
func knownKind(kind string) bool {
	for _, k := range EngineKinds {
		if k == kind {
			return true
		}
	}
	return false
}

// simengineConfig builds the simulated engine's configuration from the
// engine section: the defaults, the model name, then the args as
// cmd/simengine flags.
func simengineConfig(e *EngineSpec, cfg *simengine.Config) error {
	*cfg = simengine.DefaultConfig()
	fs := flag.NewFlagSet("simengine", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cfg.RegisterFlags(fs)
	if err := fs.Parse(e.Args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return &argError{arg: fs.Arg(0)}
	}
	if e.Model != "" {
		cfg.Model = e.Model
	}
	return cfg.Validate()
}

// argError is a positional argument where only flags are allowed.
type argError struct{ arg string }

func (e *argError) Error() string {
	return "unexpected argument " + e.arg + " (want flags such as --time-scale=0.1)"
}
