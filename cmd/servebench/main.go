// Command servebench runs, scores and demonstrates SLO benchmarks of
// OpenAI-compatible LLM serving engines.
//
// Usage:
//
//	servebench demo                 sweep the embedded simulated engine
//	servebench run [flags]          replay a workload against an endpoint
//	servebench sweep --rates R,R,…  run at several offered rates and select the SLO capacity
//	servebench sweep --rates auto   search for the knee (geometric series, then bisection)
//	servebench pareto SWEEPDIR…     the front of per-user speed against total output tokens/s
//	servebench workload import|generate …  a workload from a trace or a generator
//	servebench score TRACE EVENTS   score normalized token events
//	servebench score --run DIR      re-score a run directory with new SLOs
//	servebench ab --baseline-url U --candidate-url U …  A/B rounds, then compare
//	servebench compare BASELINE CANDIDATE  is the candidate worse than noise explains?
//	servebench history DIR...       where did metrics shift across releases?
//	servebench check CONTRACT.yaml…  run YAML contracts and judge their objectives
//	servebench version              print the version, commit and Go version
//
// Every command prints its flags with -h and exits 0. Exit codes: 0 the run
// or input is valid; 1 bad input or usage (a failed preflight, every warmup
// request failed, an --output that is not empty); 2 the
// accounting is available but the load was not delivered (a request unsent
// or sent later than the lag tolerance); 3 an objective or threshold
// failed on delivered load (attainment below --require-attainment, a
// --threshold that did not pass or could not be judged, a contract's
// objective in check); 4 (sweep) no tested rate passed the capacity rule;
// 5 (ab, compare, check) a regression; 6 (ab, compare, check)
// inconclusive (0 with --allow-inconclusive) or advisory (one round per
// side); check over several contracts exits with the first of 1, 2, 5, 3
// and 6 that applies; 130 and 143 (run, sweep, ab, merge, check)
// interrupted by SIGINT or
// SIGTERM, the finished work kept.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one subcommand: it parses its own arguments and returns the
// process exit code.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands holds the subcommands; each file registers its own in init.
var commands = map[string]command{}

func register(name, summary string, run func(args []string, stdout, stderr io.Writer) int) {
	commands[name] = command{summary: summary, run: run}
}

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

// dispatch runs the subcommand named by args[0].
func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 1
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "servebench: unknown command %q\n", args[0])
		usage(stderr)
		return 1
	}
	return c.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: servebench <command> [arguments]")
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
}
