package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/servebench/servebench/fixtures"
	"github.com/servebench/servebench/fixtures/catalog"
)

func init() {
	register("workload", "import a trace (sharegpt, burstgpt, mooncake, images, tracelab, agentx) or generate a workload into a JSONL file and its side file", runWorkload)
}

// runWorkload dispatches "workload import" and "workload generate".
func runWorkload(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || (args[0] != "import" && args[0] != "generate") {
		fmt.Fprintln(stderr, "usage: servebench workload import FORMAT FILE --output W.jsonl [options]")
		fmt.Fprintln(stderr, "       servebench workload generate KIND --output W.jsonl [options]")
		fmt.Fprintf(stderr, "formats: %s\nkinds: %s\n", strings.Join(catalog.Importers(), ", "), strings.Join(catalog.Generators(), ", "))
		if isHelpArg(args) {
			return 0
		}
		return 1
	}
	if args[0] == "import" {
		return runWorkloadImport(args[1:], stdout, stderr)
	}
	return runWorkloadGenerate(args[1:], stdout, stderr)
}

// runWorkloadImport is "workload import FORMAT FILE": the importer's
// options as flags, the workload and its side file written.
func runWorkloadImport(args []string, stdout, stderr io.Writer) int {
	if len(args) < 2 || strings.HasPrefix(args[0], "-") || strings.HasPrefix(args[1], "-") {
		fmt.Fprintf(stderr, "usage: servebench workload import FORMAT FILE --output W.jsonl [options]\nformats: %s\n", strings.Join(catalog.Importers(), ", "))
		if isHelpArg(args) {
			return 0
		}
		return 1
	}
	format, file := args[0], args[1]
	opts := catalog.ImporterOptions(format)
	if opts == nil {
		fmt.Fprintf(stderr, "servebench workload import: no importer for format %q (known: %s)\n", format, strings.Join(catalog.Importers(), ", "))
		return 1
	}
	fs := flag.NewFlagSet("servebench workload import "+format, flag.ContinueOnError)
	fs.SetOutput(stderr)
	output := fs.String("output", "", "workload JSONL file to write; its side file goes beside it (required)")
	params := optionFlags(fs, opts, nil)
	if err := parseFlags(fs, args[2:]); err != nil {
		return parseFailureCode(err)
	}
	if fs.NArg() > 0 || *output == "" {
		fmt.Fprintf(stderr, "servebench workload import: give --output and no other argument after FILE (got %q)\n", fs.Args())
		return 1
	}
	meta, n, err := catalog.ImportFile(format, file, *output, params)
	if err != nil {
		fmt.Fprintf(stderr, "servebench workload import: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %d rows, sha256 %s\n%s: parameters and summary\n", *output, n, meta.WorkloadSHA256, fixtures.MetaPath(*output))
	return 0
}

// runWorkloadGenerate is "workload generate KIND": the generator's
// parameters as flags (structured ones through --params).
func runWorkloadGenerate(args []string, stdout, stderr io.Writer) int {
	if len(args) < 1 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintf(stderr, "usage: servebench workload generate KIND --output W.jsonl [options]\nkinds: %s\n", strings.Join(catalog.Generators(), ", "))
		if isHelpArg(args) {
			return 0
		}
		return 1
	}
	kind := args[0]
	defaults := catalog.GeneratorParams(kind)
	if defaults == nil {
		fmt.Fprintf(stderr, "servebench workload generate: no generator named %q (known: %s)\n", kind, strings.Join(catalog.Generators(), ", "))
		return 1
	}
	fs := flag.NewFlagSet("servebench workload generate "+kind, flag.ContinueOnError)
	fs.SetOutput(stderr)
	output := fs.String("output", "", "workload JSONL file to write; its side file goes beside it (required)")
	count := fs.Int("count", 0, "number of rows (or conversations); 0 keeps the generator's default")
	seed := fs.Uint64("seed", 1, "seed of the generated rows")
	raw := fs.String("params", "", `structured parameters as JSON, e.g. '{"classes":[...]}'; flags override its fields`)
	params := optionFlags(fs, defaults, map[string]bool{"seed": true})
	if err := parseFlags(fs, args[1:]); err != nil {
		return parseFailureCode(err)
	}
	if fs.NArg() > 0 || *output == "" {
		fmt.Fprintf(stderr, "servebench workload generate: give --output and no other argument (got %q)\n", fs.Args())
		return 1
	}
	all := map[string]any{}
	if *raw != "" {
		dec := json.NewDecoder(strings.NewReader(*raw))
		dec.UseNumber()
		if err := dec.Decode(&all); err != nil {
			fmt.Fprintf(stderr, "servebench workload generate: --params: %v\n", err)
			return 1
		}
	}
	for k, v := range params {
		all[k] = v
	}
	g, err := catalog.Generator(kind, *count, *seed, all)
	if err != nil {
		fmt.Fprintf(stderr, "servebench workload generate: %v\n", err)
		return 1
	}
	var rows bytes.Buffer
	sum, err := fixtures.Generate(&rows, g)
	if err != nil {
		fmt.Fprintf(stderr, "servebench workload generate: %s: %v\n", kind, err)
		return 1
	}
	return writeWorkloadFiles(*output, rows.Bytes(), fixtures.NewMeta("", rows.Bytes(), g.Parameters(), sum), stdout, stderr)
}

// writeWorkloadFiles writes the files and says what was written.
func writeWorkloadFiles(path string, rows []byte, meta *fixtures.Meta, stdout, stderr io.Writer) int {
	if err := catalog.WriteFiles(path, rows, meta); err != nil {
		fmt.Fprintf(stderr, "servebench workload: %v\n", err)
		return 1
	}
	n := bytes.Count(rows, []byte("\n"))
	fmt.Fprintf(stdout, "%s: %d rows, sha256 %s\n%s: parameters and summary\n", path, n, meta.WorkloadSHA256, fixtures.MetaPath(path))
	return 0
}

// optionFlags registers one flag per scalar field of the struct opts
// points to, named after its JSON name with "-" for "_", and returns the
// map the parsed flags fill (JSON names to typed values). Structured
// fields are left to --params.
func optionFlags(fs *flag.FlagSet, opts any, skip map[string]bool) map[string]any {
	set := map[string]any{}
	t := reflect.TypeOf(opts).Elem()
	def := reflect.ValueOf(opts).Elem()
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" || skip[name] {
			continue
		}
		kind := f.Type.Kind()
		var parse func(string) (any, error)
		switch kind {
		case reflect.String:
			parse = func(s string) (any, error) { return s, nil }
		case reflect.Bool:
			parse = func(s string) (any, error) { return strconv.ParseBool(s) }
		case reflect.Int, reflect.Int64, reflect.Int32:
			parse = func(s string) (any, error) { return strconv.ParseInt(s, 10, 64) }
		case reflect.Uint64, reflect.Uint, reflect.Uint32:
			parse = func(s string) (any, error) { return strconv.ParseUint(s, 10, 64) }
		case reflect.Float64:
			parse = func(s string) (any, error) { return strconv.ParseFloat(s, 64) }
		default:
			continue
		}
		usage := fmt.Sprintf("%s (%s", name, f.Type.String())
		if d := def.Field(i); !d.IsZero() {
			usage += fmt.Sprintf(", default %v", d.Interface())
		}
		if c, ok := reflect.Zero(f.Type).Interface().(interface{ Choices() []string }); ok {
			usage += ": one of " + strings.Join(c.Choices(), ", ")
		}
		usage += ")"
		key := name
		fn := func(s string) error {
			v, err := parse(s)
			if err != nil {
				return fmt.Errorf("want a %s, got %q", kind, s)
			}
			set[key] = v
			return nil
		}
		flagName := strings.ReplaceAll(name, "_", "-")
		if fs.Lookup(flagName) != nil { // "output" is the file; the option is the output policy
			flagName += "-policy"
		}
		if kind == reflect.Bool {
			fs.BoolFunc(flagName, usage, fn)
		} else {
			fs.Func(flagName, usage, fn)
		}
	}
	return set
}
