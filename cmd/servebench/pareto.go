package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/servebench/servebench/sweepreport"
)

func init() {
	register("pareto", "the front of per-user output speed against total output tokens/s over several sweeps", runPareto)
}

// runPareto reads the sweep.json of each SWEEPDIR (one engine
// configuration each, on one workload) and prints the Pareto front of
// per-user output speed against total output tokens/s, as text, JSON or
// a self-contained HTML page. It exits 0, or 1 on bad input.
func runPareto(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("servebench pareto", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output on stdout: text, json or html")
	labels := fs.String("labels", "", "comma-separated configuration names, one per SWEEPDIR (default: each directory's name)")
	output := fs.String("output", "", "also write the HTML page to this file")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: servebench pareto [flags] SWEEPDIR...")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return parseFailureCode(err)
	}
	dirs := fs.Args()
	if len(dirs) == 0 {
		fmt.Fprintln(stderr, "servebench pareto: give at least one sweep directory")
		return 1
	}
	if *format != "text" && *format != "json" && *format != "html" {
		fmt.Fprintf(stderr, "servebench pareto: --format: want text, json or html, got %q\n", *format)
		return 1
	}
	var names []string
	if *labels != "" {
		names = strings.Split(*labels, ",")
		if len(names) != len(dirs) {
			fmt.Fprintf(stderr, "servebench pareto: --labels names %d configurations for %d sweep directories\n", len(names), len(dirs))
			return 1
		}
	}
	configs := make([]sweepreport.Config, 0, len(dirs))
	for i, d := range dirs {
		res, err := sweepreport.Load(d)
		if err != nil {
			fmt.Fprintf(stderr, "servebench pareto: %v\n", err)
			return 1
		}
		name := filepath.Base(filepath.Clean(d))
		if names != nil {
			name = strings.TrimSpace(names[i])
		}
		configs = append(configs, sweepreport.Config{Name: name, Sweep: res})
	}
	front, err := sweepreport.NewPareto(configs)
	if err != nil {
		fmt.Fprintf(stderr, "servebench pareto: %v\n", err)
		return 1
	}
	if *output != "" {
		f, err := os.Create(*output)
		if err == nil {
			err = front.WriteHTML(f, configs)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "servebench pareto: %v\n", err)
			return 1
		}
	}
	switch *format {
	case "json":
		b, err := json.MarshalIndent(front, "", "  ")
		if err != nil {
			fmt.Fprintf(stderr, "servebench pareto: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, string(b))
	case "html":
		if err := front.WriteHTML(stdout, configs); err != nil {
			fmt.Fprintf(stderr, "servebench pareto: %v\n", err)
			return 1
		}
	default:
		printPareto(stdout, front)
	}
	return 0
}

// printPareto prints every point, marking the front.
func printPareto(w io.Writer, p sweepreport.Pareto) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "configuration\trate rps\trun\toutput tok/s\tper-user tok/s\tTPOT p50 ms\tverdict\tfront\t")
	for _, pt := range p.Points {
		mark := ""
		if pt.OnFront {
			mark = "*"
		}
		fmt.Fprintf(tw, "%s\t%g\t%d\t%.1f\t%.1f\t%.2f\t%s\t%s\t\n", pt.Config, pt.RateRPS, pt.Repeat, pt.OutputTokensPerS, pt.PerUserTokensPerS, pt.TPOTP50MS, pt.Verdict, mark)
	}
	_ = tw.Flush()
	fmt.Fprintf(w, "\n%d of %d runs on the front (*); only runs that met the SLO may be on it.\n", len(p.Front), len(p.Points))
	for _, s := range p.Skipped {
		fmt.Fprintf(w, "  (skipped: %s)\n", s)
	}
}
