package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/schedule"
)

// userSearchFlags are the sweep's --users auto settings.
type userSearchFlags struct {
	search capacity.AutoUsers
}

func (f *userSearchFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&f.search.StartUsers, "auto-start-users", 1, "--users auto: the first number of users, doubled while it passes")
	fs.IntVar(&f.search.MaxUsers, "auto-max-users", 1024, "--users auto: the most users tried")
	fs.Float64Var(&f.search.Tolerance, "tolerance", 0.1, "--users auto: bisect until the failing and passing numbers of users are within this fraction of the passing one")
}

// prepare turns the run flags into a user search: a closed loop starting
// at the first number of users.
func (f *userSearchFlags) prepare(rf *runFlags, rates string) error {
	switch {
	case rates != "":
		return errors.New("--users auto searches the users; give no --rates")
	case rf.given["arrival"] && schedule.Process(rf.arrival) != schedule.ProcessClosed:
		return fmt.Errorf("--users auto: the search runs a closed loop, got --arrival %s", rf.arrival)
	}
	rf.arrival, rf.users.n, rf.searchUsers = string(schedule.ProcessClosed), f.search.StartUsers, true
	return nil
}

// printUserSearch prints a user search in the text format.
func printUserSearch(w io.Writer, sw *capacity.Sweep) {
	sel := sw.Concurrency
	unit, judged := "users", "attainment"
	if sw.Capacity != nil && sw.Capacity.Unit == capacity.UnitAgents {
		unit, judged = "agents", "session attainment"
	}
	for _, v := range sel.Verdicts {
		fmt.Fprintf(w, "%6d %-6s %-12s %s %s", v.Users, unit, v.Verdict, judged, numfmt.OptFixed(v.Attainment, 3))
		if len(v.Reasons) > 0 {
			fmt.Fprintf(w, "  (%s)", strings.Join(v.Reasons, "; "))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	for _, l := range concurrencyLines(sw) {
		fmt.Fprintln(w, l)
	}
}

// concurrencyLines say which number of users is the SLO concurrency, or
// that none passed, then the answer and the selection's notes.
func concurrencyLines(sw *capacity.Sweep) []string {
	sel := sw.Concurrency
	lines := []string{"SLO concurrency: no tested number of users passed"}
	if sel.Users != nil {
		lines[0] = fmt.Sprintf("SLO concurrency: %d users (%s)", *sel.Users, sel.Label)
	}
	if b := sw.Capacity; b != nil && b.Unit == capacity.UnitAgents {
		lines[0] = "agent capacity: no tested number of agents met the session attainment"
		if sel.Users != nil {
			lines[0] = fmt.Sprintf("agent capacity: %d agents (the most concurrent sessions whose session attainment passed)", *sel.Users)
		}
		if b.AgentsPerGPU != nil {
			lines[0] += fmt.Sprintf("; %s agents per GPU", numfmt.Compact(*b.AgentsPerGPU))
		}
		if b.AgentsPerKW != nil {
			lines[0] += fmt.Sprintf(", %s agents per kW", numfmt.Compact(*b.AgentsPerKW))
		}
	}
	lines = append(lines, answerLine(sw))
	for _, n := range sel.Notes {
		lines = append(lines, fmt.Sprintf("  (%s)", n))
	}
	return lines
}
