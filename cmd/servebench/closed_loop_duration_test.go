package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// runOutcomes reads a run directory's outcome records.
func runOutcomes(t *testing.T, dir string) []record.Outcome {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, record.OutcomesFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []record.Outcome
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var o record.Outcome
		if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
			t.Fatal(err)
		}
		out = append(out, o)
	}
	return out
}

// lagRoom is the schedule-lag tolerance of the tests that judge what a run
// records (how a deadline ends a closed loop, when a shard starts), not how
// punctually a busy machine sends: there a request can leave tens of
// milliseconds late, past the 20 ms default that makes the load valid.
const lagRoom = "1s"

func TestRunUsersWithDurationEndsAtTheDeadline(t *testing.T) {
	url := startSim(t, nil)
	out := filepath.Join(t.TempDir(), "run")
	// --users alone implies the closed loop; --duration bounds it.
	code, stdout, stderr := runCLI("run", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, twoRows), "--users", "3", "--duration", "1s",
		"--schedule-lag-tolerance", lagRoom, "--output", out, "--format", "json", "--no-progress")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("stdout is not the JSON report: %v", err)
	}
	if rep.WindowMS != [2]float64{0, 1000} || !rep.Valid || rep.Generator == nil || rep.Generator.Mode != "closed" {
		t.Fatalf("window %v, valid %v (%v), generator %+v; want [0, 1000), valid, closed", rep.WindowMS, rep.Valid, rep.InvalidReasons, rep.Generator)
	}
	outs := runOutcomes(t, out)
	starts, sent := 0, 0
	for _, o := range outs {
		if o.Status != record.StatusSuccess {
			t.Errorf("%s: status %s (%s), want success: no request is lost", o.ID, o.Status, o.Error)
		}
		if o.ScheduledMS >= 1000 {
			t.Errorf("%s: scheduled at %v ms, at or after the 1 s deadline", o.ID, o.ScheduledMS)
		}
		if o.ScheduledMS == 0 {
			starts++
		}
		if o.SentMS != nil {
			sent++
		}
	}
	// Each of the 3 users sends its first request at 0; the offered
	// requests are exactly those the users sent, each with its record.
	if starts != 3 || rep.Offered != len(outs) || rep.ProtocolSuccesses != len(outs) || sent != len(outs) || rep.Generator.Scheduled != len(outs) || len(outs) <= 3 {
		t.Fatalf("%d first requests at 0 ms (want 3), offered %d, successes %d, sent %d, scheduled %d, records %d",
			starts, rep.Offered, rep.ProtocolSuccesses, sent, rep.Generator.Scheduled, len(outs))
	}
}

func TestRunUsersWithDurationTruncatesSessions(t *testing.T) {
	url := startSim(t, nil)
	out := filepath.Join(t.TempDir(), "run")
	var rows strings.Builder
	for turn := 1; turn <= 4; turn++ {
		rows.WriteString(`{"id":"c-` + string(rune('0'+turn)) + `","conversation":"c","turn":` + string(rune('0'+turn)) +
			`,"think_ms":1000,"messages":[{"role":"user","content":"go on"}],"max_tokens":2,"ignore_eos":true}` + "\n")
	}
	code, stdout, stderr := runCLI("run", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, rows.String()), "--arrival", "closed", "--users", "2", "--duration", "1900ms",
		"--schedule-lag-tolerance", lagRoom, "--output", out, "--format", "json", "--no-progress")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("stdout is not the JSON report: %v", err)
	}
	// Each user's session sends turn 1 at 0 and turn 2 a think time (1 s)
	// after turn 1 ended, inside the 1.9 s window while turn 1 takes under
	// 0.9 s (a few ms on the simulated engine, with room for a busy
	// machine); turn 3 would be due 2 s plus two answers in, past the
	// deadline whatever the machine, so turns 3 and 4 of both sessions
	// are truncated.
	byStatus := map[string][]string{}
	for _, o := range runOutcomes(t, out) {
		switch {
		case o.Status == record.StatusSuccess && o.ScheduledMS < 1900:
			byStatus["success"] = append(byStatus["success"], o.ID)
		case o.Status == record.StatusNotSent && o.Reason == record.ReasonSessionTruncated && o.SentMS == nil && o.ScheduledMS >= 1900:
			byStatus["truncated"] = append(byStatus["truncated"], o.ID)
		default:
			t.Errorf("%s: status %s, reason %q, scheduled %v ms", o.ID, o.Status, o.Reason, o.ScheduledMS)
		}
	}
	if len(byStatus["success"]) != 4 || len(byStatus["truncated"]) != 4 {
		t.Fatalf("records: %v; want 4 sent turns and 4 truncated", byStatus)
	}
	// Truncated turns were never due inside the window: not offered, and
	// the load was delivered.
	if rep.Offered != 4 || rep.ProtocolSuccesses != 4 || !rep.Valid || rep.StatusCounts[record.StatusNotSent] != 0 {
		t.Fatalf("offered %d, successes %d, valid %v (%v), not_sent %d; want 4, 4, valid, 0",
			rep.Offered, rep.ProtocolSuccesses, rep.Valid, rep.InvalidReasons, rep.StatusCounts[record.StatusNotSent])
	}
}

func TestRunUsersRefusesAnOpenLoopArrival(t *testing.T) {
	code, _, stderr := runCLI("run", "--base-url", "http://127.0.0.1:1", "--model", "m", "--workload", writeWorkload(t, twoRows),
		"--arrival", "poisson", "--rate", "4", "--users", "4", "--duration", "2s", "--output", t.TempDir())
	if want := "servebench run: --arrival poisson and --users: users run a closed loop; give --arrival closed or leave --arrival out\n"; code != 1 || stderr != want {
		t.Fatalf("exit %d, stderr %q; want 1, %q", code, stderr, want)
	}
}
