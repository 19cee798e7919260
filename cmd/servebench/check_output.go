package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/servebench/servebench/suites"
)

// outcomeWord is how a verdict's outcome is printed, padded to one width.
var outcomeWord = map[suites.Outcome]string{suites.Passed: "PASS", suites.Failed: "FAIL", suites.Skipped: "SKIP",
	suites.Unjudged: "UNJUDGED", suites.Informational: "INFO"}

// printContractResult prints one contract's verdicts: a heading per load
// point, then one line per objective, "PASS  file:line  name: measured",
// a failure's message indented below it and a skip's reason after it.
func printContractResult(w io.Writer, r contractResult) {
	fmt.Fprintf(w, "contract %s (%s)\n", r.contract.Name, r.contract.Path)
	point := "\x00"
	for _, v := range r.verdicts {
		if v.LoadPoint != point {
			point = v.LoadPoint
			if point != "" {
				fmt.Fprintf(w, "  %s\n", point)
			} else {
				fmt.Fprintln(w, "  over every load point")
			}
		}
		fmt.Fprintln(w, "    "+verdictLine(v))
		switch v.Outcome {
		case suites.Failed, suites.Informational:
			for _, line := range messageBody(v) {
				fmt.Fprintln(w, "          "+line)
			}
		}
	}
}

// verdictLine is a verdict's one line.
func verdictLine(v suites.Verdict) string {
	s := fmt.Sprintf("%s  %s:%d  %s", outcomeWord[v.Outcome], v.At.FileName, v.At.LineNumber, v.Name)
	switch {
	case v.Outcome == suites.Skipped:
		s += ": skipped: " + v.Message
	case v.Outcome == suites.Unjudged:
		s += ": unjudged: " + v.Message
	case v.Measured != "":
		s += ": " + v.Measured
	}
	return s
}

// messageBody is a failure's message without its heading when the heading
// repeats the verdict line's location.
func messageBody(v suites.Verdict) []string {
	lines := strings.Split(strings.TrimRight(v.Message, "\n"), "\n")
	if len(lines) > 0 && lines[0] == v.Heading() {
		lines = lines[1:]
	}
	return lines
}

// checkTally is the closing line: how many verdicts passed, failed and
// were skipped, over how many contracts, and the exit code with its
// meaning.
func checkTally(results []contractResult, code int) string {
	n := map[suites.Outcome]int{}
	for _, r := range results {
		for _, v := range r.verdicts {
			n[v.Outcome]++
		}
	}
	var more string
	if k := n[suites.Unjudged]; k > 0 {
		more += fmt.Sprintf(", %d unjudged", k)
	}
	if k := n[suites.Informational]; k > 0 {
		more += fmt.Sprintf(", %d informational", k)
	}
	return fmt.Sprintf("check: %d passed, %d failed, %d skipped%s in %d %s: exit %d (%s)",
		n[suites.Passed], n[suites.Failed], n[suites.Skipped], more, len(results), plural(len(results), "contract", "contracts"), code, checkExitMeaning[code])
}

// checkExitMeaning says what each of check's exit codes means.
var checkExitMeaning = map[int]string{
	0: "every objective holds",
	1: "a load did not run",
	2: "a load was not delivered: not evidence",
	3: "an objective failed on delivered load",
	5: "a regression against the baseline",
	6: "an inconclusive or advisory comparison",
}

// plural picks the word form for a count.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// labelList lists the labels of the contracts, each once, in order.
func labelList(contracts []*suites.Contract) string {
	seen := map[string]bool{}
	var out []string
	for _, c := range contracts {
		for _, l := range c.AllLabels() {
			if !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}
