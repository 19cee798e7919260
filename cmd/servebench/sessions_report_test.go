package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/report"
)

// TestRunReportsSessionsAndTheSteadyState: a closed loop of two users over
// three two-turn conversations (a count of 3 arrivals, each bringing its two turns) against the simulated engine reports the
// three sessions judged whole, all qualified, and a steady state of at
// most two requests in flight; the summary shows both.
func TestRunReportsSessionsAndTheSteadyState(t *testing.T) {
	url := startSim(t, nil)
	var rows strings.Builder
	for _, c := range []string{"a", "b", "c"} {
		rows.WriteString(`{"id":"` + c + `-1","conversation":"` + c + `","turn":1,"messages":[{"role":"user","content":"hello"}],"max_tokens":4}` + "\n")
		rows.WriteString(`{"id":"` + c + `-2","conversation":"` + c + `","turn":2,"messages":[{"role":"user","content":"hello"},{"role":"assistant","content":"hi"},{"role":"user","content":"more"}],"max_tokens":4}` + "\n")
	}
	out := filepath.Join(t.TempDir(), "run")
	args := []string{"run", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, rows.String()), "--arrival", "closed", "--users", "2", "--count", "3",
		"--schedule-lag-tolerance", "2s", "--output", out, "--no-progress"}
	code, stdout, stderr := runCLI(append(args, "--format", "json")...)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	s := rep.Sessions
	if s == nil || s.Offered != 3 || s.Completed != 3 || s.Truncated != 0 || s.Qualified != 3 || s.Attainment == nil || *s.Attainment != 1 {
		t.Fatalf("sessions %+v, want 3 offered, completed and qualified", s)
	}
	st := rep.SteadyState
	if st == nil || st.PeakInFlight < 1 || st.PeakInFlight > 2 || st.EndMS <= st.StartMS || !st.Short {
		t.Fatalf("steady state %+v, want a short window of at most 2 in flight", st)
	}
	code, stdout, stderr = runCLI(append(args, "--output", filepath.Join(t.TempDir(), "again"))...)
	if code != 0 || !strings.Contains(stdout, "\nsessions:    100.0% (3 of 3; 0 truncated); Wilson lower bound ") || !strings.Contains(stdout, "\nsteady:      [") {
		t.Fatalf("summary: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestTruncatedSessionsAreCountedApart: a closed loop of two users bounded
// by 600 ms over a four-turn conversation with 300 ms think times truncates
// both users' sessions after their second turn: two sessions offered, both
// truncated, none judged, so the session attainment is null.
func TestTruncatedSessionsAreCountedApart(t *testing.T) {
	url := startSim(t, nil)
	var rows strings.Builder
	for turn := 1; turn <= 4; turn++ {
		rows.WriteString(`{"id":"c-` + string(rune('0'+turn)) + `","conversation":"c","turn":` + string(rune('0'+turn)) +
			`,"think_ms":300,"messages":[{"role":"user","content":"go on"}],"max_tokens":2,"ignore_eos":true}` + "\n")
	}
	code, stdout, stderr := runCLI("run", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, rows.String()), "--arrival", "closed", "--users", "2", "--duration", "600ms",
		"--schedule-lag-tolerance", lagRoom, "--output", filepath.Join(t.TempDir(), "run"), "--format", "json", "--no-progress")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	s := rep.Sessions
	if s == nil || s.Offered != 2 || s.Truncated != 2 || s.Completed != 0 || s.Qualified != 0 || s.Attainment != nil || s.WilsonLower != nil {
		t.Fatalf("sessions %+v, want 2 offered, both truncated, no attainment", s)
	}
	if rep.Offered != 4 || rep.Qualified != 4 {
		t.Fatalf("offered %d, qualified %d: the 4 sent turns still count", rep.Offered, rep.Qualified)
	}
}
