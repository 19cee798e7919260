package suites

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// contractFields are the top-level fields of a contract.
var contractFields = []string{
	"name", "labels", "engine", "base_url", "model", "api_key_env", "endpoint", "length_control",
	"workload", "arrival", "count", "duration", "warmup", "max_concurrency", "timeouts", "slo",
	"objectives", "schedule_lag_tolerance", "artifacts", "baseline",
	"benchmark_report", "metrics_listen", "backend_header", "backend_metrics", "search", "adapters", "adapter_assignment",
	"history", "images", "load_adapters", "adapter_load_timeout", "cache", "tiers", "enforce", "unjudged",
}

// Load reads and validates one contract file. Every problem is reported,
// each as a *FieldError naming the file, the line and the field; unknown
// fields are errors. The workload is read (or generated) here, so a contract
// that loads is ready to run.
func Load(path string) (*Contract, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load contract: %w", err)
	}
	return Parse(path, data)
}

// LoadDir loads every *.yaml and *.yml file in dir, in name order. Contract
// names must be unique.
func LoadDir(dir string) ([]*Contract, error) {
	var paths []string
	for _, pattern := range []string{"*.yaml", "*.yml"} {
		m, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			return nil, fmt.Errorf("load contracts: %w", err)
		}
		paths = append(paths, m...)
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		return nil, fmt.Errorf("load contracts: no *.yaml or *.yml file in %s", dir)
	}
	var out []*Contract
	var errs []error
	byName := map[string]string{}
	for _, p := range paths {
		c, err := Load(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if prev, dup := byName[c.Name]; dup {
			errs = append(errs, fmt.Errorf("%s: name: %q is already the name of the contract in %s", p, c.Name, prev))
			continue
		}
		byName[c.Name] = p
		out = append(out, c)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// Parse validates a contract from its bytes; path names the file in errors
// and anchors relative paths (the workload file, the artifacts directory).
func Parse(path string, data []byte) (*Contract, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &FieldError{File: path, Line: 1, Column: 1, Field: "contract", Msg: "the file is empty"}
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &FieldError{File: path, Line: extra.Line, Column: extra.Column, Field: "contract", Msg: "a contract file holds one YAML document; put each contract in its own file"}
	} else if !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	d := &decoder{file: path}
	c := &Contract{Path: path, raw: data}
	root := doc.Content[0]
	m := d.mapping(root, "", contractFields...)
	if m == nil {
		return nil, d.err()
	}
	dir := filepath.Dir(path)

	if d.required(m, "name") {
		c.Name = d.str(m, "name")
	}
	c.Labels = d.labels(m)
	d.target(m, c)
	d.workload(m, c, dir)
	d.arrival(m, c)
	d.bounds(m, c)
	d.cache(m, c)
	d.outputs(m, c)
	d.adapters(m, c)
	d.adapterLoads(m, c)
	d.history(m, c)
	d.timeouts(m, c)
	d.slo(m, c)
	d.objectives(m, c)
	d.tiers(m, c)
	d.endpointFit(m, c)
	d.images(m, c)
	d.userSearch(m, c)
	d.baseline(m, c)
	c.ScheduleLagTolerance = d.duration(m, "schedule_lag_tolerance")
	if a := d.str(m, "artifacts"); a != "" {
		c.Artifacts = a
		if !filepath.IsAbs(a) {
			c.Artifacts = filepath.Join(dir, a)
		}
	}
	if err := d.err(); err != nil {
		return nil, err
	}
	c.lines = d.lines
	return c, nil
}

// target reads the engine or the base URL, the model, the endpoint and the
// length control.
func (d *decoder) target(m *mapping, c *Contract) {
	switch {
	case m.has("engine") && m.has("base_url"):
		d.errorf(m.get("base_url"), "base_url", "give either engine or base_url, not both")
	case m.has("engine"):
		c.Engine = d.engine(m.get("engine"))
		if c.Engine != nil && m.has("model") {
			d.errorf(m.get("model"), "model", "with an engine, set engine.model instead")
		}
	case m.has("base_url"):
		c.BaseURL = d.str(m, "base_url")
		if c.BaseURL != "" && !strings.HasPrefix(c.BaseURL, "http://") && !strings.HasPrefix(c.BaseURL, "https://") {
			d.errorf(m.get("base_url"), "base_url", "want an http:// or https:// URL, got %q", c.BaseURL)
		}
		if d.required(m, "model") {
			c.Model = d.printable(m, "model")
		}
	default:
		d.errorf(m.node, "engine", "required: give an engine to start or the base_url of a running server")
	}
	c.APIKeyEnv = d.str(m, "api_key_env")
	c.Endpoint = record.EndpointChat
	if e := d.str(m, "endpoint"); e != "" {
		if ep, err := record.ParseEndpoint(e); err != nil {
			d.errorf(m.get("endpoint"), "endpoint", "%v", err)
		} else {
			c.Endpoint = ep
		}
	}
	kind := ""
	if c.Engine != nil {
		kind = c.Engine.Kind
	}
	c.LengthControl = defaultLengthControl(kind)
	if l := d.str(m, "length_control"); l != "" {
		lc, err := openai.ParseLengthControl(l)
		if err != nil {
			d.errorf(m.get("length_control"), "length_control", "%v", err)
		}
		c.LengthControl = lc
	}
}

// defaultLengthControl is how each engine kind can be made to run to
// max_tokens.
func defaultLengthControl(kind string) openai.LengthControl {
	switch kind {
	case "tgi", "ollama":
		return openai.LengthUnsupported
	case "vllm":
		return openai.LengthIgnoreEOSMinTokens
	}
	return openai.LengthIgnoreEOS
}

// bounds reads count, duration, warmup and max_concurrency.
func (d *decoder) bounds(m *mapping, c *Contract) {
	c.Count = d.integer(m, "count", 1)
	c.Duration = d.duration(m, "duration")
	switch phases := c.Arrival.Phases; {
	case len(phases) > 0 && (m.has("count") || m.has("duration")):
		key := "count"
		if m.has("duration") {
			key = "duration"
		}
		d.errorf(m.get(key), key, "arrival.phases give the load point's length; leave %s out", key)
	case len(phases) > 0:
		c.Duration = schedule.PhasesDuration(phases)
	case m.has("count") && m.has("duration"):
		d.errorf(m.get("duration"), "duration", "give either count or duration, not both")
	case !m.has("count") && !m.has("duration") && c.Arrival.Process != schedule.ProcessReplay:
		d.errorf(m.node, "count", "required: give count (arrivals per load point) or duration (length of the arrival window)")
	}
	c.Warmup = d.integer(m, "warmup", 0)
	c.MaxConcurrency = d.integer(m, "max_concurrency", 0)
}

// timeouts reads the per-request deadlines and the spec bounds.
func (d *decoder) timeouts(m *mapping, c *Contract) {
	t := d.mapping(orEmpty(m.get("timeouts")), "timeouts", "first_token", "idle", "total", "run", "startup")
	if t == nil {
		return
	}
	c.Timeouts = Timeouts{
		FirstToken: d.duration(t, "first_token"),
		Idle:       d.duration(t, "idle"),
		Total:      d.duration(t, "total"),
		Run:        d.duration(t, "run"),
		Startup:    d.duration(t, "startup"),
	}
}

// slo reads the latency objective each request is judged by.
func (d *decoder) slo(m *mapping, c *Contract) {
	s := d.mapping(orEmpty(m.get("slo")), "slo", "ttft", "tpot", "e2e", "ttft_from")
	if s == nil {
		return
	}
	c.SLO = report.SLO{TTFT: d.duration(s, "ttft"), TPOT: d.duration(s, "tpot"), E2E: d.duration(s, "e2e")}
	switch from := d.str(s, "ttft_from"); from {
	case "", "sent":
	case "scheduled":
		c.SLO.TTFTFromScheduled = true
	default:
		d.errorf(s.get("ttft_from"), "slo.ttft_from", "want sent or scheduled, got %q", from)
	}
}

// orEmpty stands in an empty mapping for an absent section.
func orEmpty(n *yaml.Node) *yaml.Node {
	if n == nil {
		return &yaml.Node{Kind: yaml.MappingNode}
	}
	return n
}
