package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// refusedFlag is a flag a command does not accept although a related
// command does, with why: it is left out of the command's -h, and giving it
// gets this reason instead of "unknown flag". A deprecated one was accepted
// until now: for one release it is still taken, ignored, with a warning.
type refusedFlag struct {
	name, why  string
	deprecated bool
}

// parseFlags parses args with fs, whatever flags fs holds. -h prints the
// command's usage (its own flags only) and returns flag.ErrHelp; a bad flag
// prints one line on fs's output, with the closest flag name when one is
// near and a pointer to -h, instead of the full usage; a refused flag
// prints why it is refused.
func parseFlags(fs *flag.FlagSet, args []string, refused ...refusedFlag) error {
	out, usage := fs.Output(), fs.Usage
	args = dropDeprecated(fs, args, refused)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.SetOutput(out)
	fs.Usage = usage
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		fs.Usage()
		return err
	}
	fmt.Fprintln(out, flagErrorLine(fs, err, refused))
	return err
}

// dropDeprecated removes the deprecated flags (with their values) from
// args and warns about each on fs's output.
func dropDeprecated(fs *flag.FlagSet, args []string, refused []refusedFlag) []string {
	var kept []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(kept, args[i:]...)
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		j := slices.IndexFunc(refused, func(r refusedFlag) bool { return r.deprecated && r.name == name })
		if !strings.HasPrefix(a, "-") || j < 0 {
			kept = append(kept, a)
			continue
		}
		fmt.Fprintf(fs.Output(), "%s: warning: --%s is deprecated and ignored (%s); the next release refuses it\n", fs.Name(), name, refused[j].why)
		if !hasValue {
			i++ // its value
		}
	}
	return kept
}

// flagErrorLine is the one line that explains a parse error.
func flagErrorLine(fs *flag.FlagSet, err error, refused []refusedFlag) string {
	help := fmt.Sprintf("(%s -h lists its flags)", fs.Name())
	name, unknown := strings.CutPrefix(err.Error(), "flag provided but not defined: ")
	if !unknown {
		return fmt.Sprintf("%s: %v %s", fs.Name(), err, help)
	}
	name = strings.TrimLeft(name, "-")
	if i := slices.IndexFunc(refused, func(r refusedFlag) bool { return r.name == name }); i >= 0 {
		return fmt.Sprintf("%s: --%s is refused: %s %s", fs.Name(), name, refused[i].why, help)
	}
	if near := nearestFlag(fs, name); near != "" {
		return fmt.Sprintf("%s: unknown flag --%s; did you mean --%s? %s", fs.Name(), name, near, help)
	}
	return fmt.Sprintf("%s: unknown flag --%s %s", fs.Name(), name, help)
}

// nearestFlag is the flag of fs whose name is closest to name by edit
// distance, when it is close enough to be a typo: at most 2 edits, or a
// third of the name's length for longer names. Empty when none is.
func nearestFlag(fs *flag.FlagSet, name string) string {
	best, bestDist := "", max(2, len(name)/3)+1
	fs.VisitAll(func(f *flag.Flag) {
		if d := editDistance(name, f.Name); d < bestDist {
			best, bestDist = f.Name, d
		}
	})
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes
// (flag names are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, sub)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// registerWithout registers the run flags on fs except the refused ones,
// so that a command built on run's flags lists only those it accepts.
func (f *runFlags) registerWithout(fs *flag.FlagSet, refused []refusedFlag) {
	all := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	f.register(all)
	all.VisitAll(func(fl *flag.Flag) {
		if !slices.ContainsFunc(refused, func(r refusedFlag) bool { return r.name == fl.Name }) {
			fs.Var(fl.Value, fl.Name, fl.Usage)
		}
	})
}

// abRefusedFlags are the run flags ab does not take: each side has its own
// URL and metrics endpoint, each round's runs get their own IDs and run
// whole, and the comparison is the verdict and the output.
var abRefusedFlags = []refusedFlag{
	{"base-url", "--base-url and --metrics-url are replaced by their --baseline- and --candidate- forms", false},
	{"metrics-url", "--base-url and --metrics-url are replaced by their --baseline- and --candidate- forms", false},
	{"require-attainment", "the comparison is the verdict", false},
	{"threshold", "the comparison is the verdict", false},
	{"shard", "each round's runs get their own IDs and run whole, in turn", false},
	{"start-at", "each round's runs get their own IDs and run whole, in turn", false},
	{"run-id", "each round's runs get their own IDs and run whole, in turn", false},
	{"format", "ab prints the comparison's summary (--report full: its full text) and writes compare.txt, compare.json and compare.html", false},
}

// k8sJobRefusedFlags are the run flags k8s job does not take: each of the
// Job's pods runs one shard, whose report is one part of the run.
var k8sJobRefusedFlags = []refusedFlag{
	{"threshold", "each of the Job's pods runs one shard, and a shard's report is one part of the run, not the run", false},
}
