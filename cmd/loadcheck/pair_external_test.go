package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExternalClientsLabels pairs -also-label with -also-servebench by
// position, labels the rest by file name, and refuses labels that would
// make two clients one.
func TestExternalClientsLabels(t *testing.T) {
	for _, tc := range []struct {
		paths, labels []string
		want          string
	}{
		{[]string{"/x/servebench"}, nil, `-also-label: "servebench" names an in-process client`},
		{[]string{"/x/a", "/y/a"}, nil, `-also-label: "a" labels two binaries`},
		{[]string{"/x/a"}, []string{"lean"}, `-also-label: "lean" names an in-process client`},
		{[]string{"/x/a"}, []string{"a", "b"}, "-also-label: 2 labels for 1 -also-servebench binaries"},
		{nil, []string{"a"}, "-also-label: 1 labels for 0"},
		{[]string{"/x/a"}, []string{"two words"}, "-also-label: want a label without blanks"},
		{[]string{""}, nil, "-also-servebench: empty path"},
	} {
		_, err := externalClients(tc.paths, tc.labels)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v %v: error %v, want one containing %q", tc.paths, tc.labels, err, tc.want)
		}
	}
	ok, err := externalClients([]string{"/tmp/a/servebench-e12cfa1", "/tmp/b/sb"}, []string{"e12cfa1"})
	if err != nil || len(ok) != 2 || ok[0].label != "e12cfa1" || ok[1].label != "sb" || ok[1].path != "/tmp/b/sb" {
		t.Errorf("got %+v, %v; want e12cfa1 and sb (the file name)", ok, err)
	}
}

// TestParsePairTakesExternalBinaries reads -also-servebench and
// -also-label into the rounds' clients, and refuses -trace without
// -profile.
func TestParsePairTakesExternalBinaries(t *testing.T) {
	c, err := parsePair([]string{"-also-servebench", "/bin/old", "-also-label", "e12cfa1", "-also-servebench", "/bin/new"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.clients(), ","); got != "lean,servebench,e12cfa1,new" {
		t.Errorf("clients %s, want lean,servebench,e12cfa1,new", got)
	}
	if _, err := parsePair([]string{"-trace"}); err == nil || !strings.Contains(err.Error(), "-trace") {
		t.Errorf("-trace without -profile: error %v, want one naming -trace", err)
	}
	if c, err := parsePair([]string{"-trace", "-profile", t.TempDir()}); err != nil || !c.trace {
		t.Errorf("-trace -profile DIR: %+v, %v", c, err)
	}
}

// TestExternalClientCheckRefuses refuses, before any load, a missing
// file, a file that is not executable, and a program whose "run -h" lacks
// a flag the phase passes.
func TestExternalClientCheckRefuses(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, []byte("not a program"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A program whose help lists every flag but -skip-preflight and
	// -gpu-sample-interval.
	var help strings.Builder
	for _, f := range externalRunFlags {
		if f != "skip-preflight" && f != "gpu-sample-interval" {
			help.WriteString("  -" + f + " string\n    \tusage\n")
		}
	}
	partial := filepath.Join(dir, "partial")
	if err := os.WriteFile(partial, []byte("#!/bin/sh\ncat <<'EOF'\nUsage of servebench run:\n"+help.String()+"EOF\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		filepath.Join(dir, "missing"): "-also-servebench: stat",
		plain:                         "is not an executable file",
		partial:                       "run -h lists no -skip-preflight, -gpu-sample-interval",
	} {
		err := externalClient{label: "x", path: path}.check()
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "-also-servebench") {
			t.Errorf("%s: error %v, want one naming -also-servebench and containing %q", filepath.Base(path), err, want)
		}
	}
	full := filepath.Join(dir, "full")
	all := help.String() + "  -skip-preflight\n  -gpu-sample-interval duration\n"
	if err := os.WriteFile(full, []byte("#!/bin/sh\ncat <<'EOF'\n"+all+"EOF\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := (externalClient{label: "x", path: full}).check(); err != nil {
		t.Errorf("a program listing every flag: %v", err)
	}
}

// TestReadRunDirJoinsByRequestID reads a run directory written the way
// the CLI writes one (fields as at e12cfa1): every record's X-Request-Id
// is run_id/id/1, and its clocks give the phase's figures: errors
// (52−2)−48 = 2 and (80−25)−51 = 4; lags 2, 5 and 1; the timeout is sent
// but not a success, the unsent one has no lag.
func TestReadRunDirJoinsByRequestID(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"schedule.json": `{"schema":"servebench.schedule/v1","run_id":"R1","entries":[{"id":"p000"},{"id":"p001"}]}`,
		"outcomes.jsonl": `{"id":"p000","attempt":1,"status":"success","scheduled_ms":0,"sent_ms":2,"first_content_ms":52,"terminal_ms":90}
{"id":"p001","attempt":1,"status":"success","scheduled_ms":20,"slot_ms":20.1,"sent_ms":25,"first_content_ms":80,"terminal_ms":99}
{"id":"p002","attempt":1,"status":"timeout","scheduled_ms":30,"sent_ms":31,"first_content_ms":null,"terminal_ms":200}
{"id":"p003","attempt":1,"status":"not_sent","scheduled_ms":40,"sent_ms":null,"first_content_ms":null,"terminal_ms":40}
`,
		"report.json": `{"valid":false,"invalid_reasons":["1 of 4 offered requests were never sent"],"generator":{"peak_outstanding":3,"scheduler_latency_p99_ms":0.25}}`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rd, err := readRunDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rd.runID != "R1" || len(rd.timings) != 4 || rd.peakInFlight != 3 {
		t.Fatalf("run %q, %d records, peak %d; want R1, 4, 3", rd.runID, len(rd.timings), rd.peakInFlight)
	}
	if got := rd.timings[1]; got != (requestTiming{id: "R1/p001/1", scheduled: 20, sent: 25, first: 80, hasSent: true, hasFirst: true, succeeded: true}) {
		t.Errorf("record 2: %+v", got)
	}
	if got := rd.timings[3]; got.hasSent || got.hasFirst || got.succeeded || got.id != "R1/p003/1" {
		t.Errorf("the unsent record: %+v", got)
	}
	notes := strings.Join(rd.notes, "\n")
	if !strings.Contains(notes, "Go scheduler latency p99 0.25 ms") || !strings.Contains(notes, "not valid load: 1 of 4 offered requests were never sent") {
		t.Errorf("notes %q", notes)
	}
	var r phaseResult
	r.fill(rd.timings, map[string]float64{"R1/p000/1": 48, "R1/p001/1": 51, "R1/p002/1": 40, "other/p000/1": 1})
	// Errors sorted 2, 4: p50 rank 1 = 2, p99 rank 2 = 4. Lags sorted
	// 1, 2, 5: p50 rank 2 = 2, p99 rank 3 = 5.
	if r.Scheduled != 4 || r.Succeeded != 2 || r.Joined != 2 || r.TTFTErrorP50MS != 2 || r.TTFTErrorP99MS != 4 ||
		r.LagP50MS != 2 || r.LagP99MS != 5 || r.Valid {
		t.Errorf("figures %+v", r)
	}

	if err := os.WriteFile(filepath.Join(dir, "outcomes.jsonl"), []byte(`{"id":"p000","status":"success"}`+"\n{\"id\":\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readRunDir(dir); err == nil || !strings.Contains(err.Error(), "outcomes.jsonl: record 2") {
		t.Errorf("a cut record: error %v, want one naming outcomes.jsonl and record 2", err)
	}
}

// TestParseProcFiles reads CPU time from a /proc/PID/stat line whose
// command name holds blanks and parentheses, and VmHWM from a status.
func TestParseProcFiles(t *testing.T) {
	// Fields 3 to 13 are S 1 2 3 4 5 6 7 8 9 10; utime 250 and stime 55
	// ticks at 100 per second: 3,050 ms.
	stat := []byte("4242 (serve (old) bench) S 1 2 3 4 5 6 7 8 9 10 250 55 0 0 20 0 9 0 100 1000 200\n")
	cpu, err := parseProcStat(stat)
	if err != nil || cpu != 3050 {
		t.Errorf("cpu %g ms, %v; want 3050", cpu, err)
	}
	if _, err := parseProcStat([]byte("4242 (x) S 1 2")); err == nil {
		t.Error("a short stat line parsed")
	}
	status := []byte("Name:\tservebench\nVmPeak:\t  900000 kB\nVmHWM:\t   131072 kB\nVmRSS:\t  100000 kB\n")
	hwm, err := parseVmHWM(status)
	if err != nil || hwm != 131072 {
		t.Errorf("VmHWM %d kB, %v; want 131072", hwm, err)
	}
	if _, err := parseVmHWM([]byte("Name:\tzombie\nState:\tZ (zombie)\n")); err == nil {
		t.Error("a status without VmHWM parsed")
	}
}

// TestPairReportAgainstAnotherBuild judges servebench's TTFT error against
// a third client's medians with the lean client's margins, and prints the
// medians of each pair, a fourth client's against the third's included.
func TestPairReportAgainstAnotherBuild(t *testing.T) {
	phases := []phaseResult{
		{Client: "lean", Scheduled: 5, Succeeded: 5, Joined: 5, TTFTErrorP50MS: 1, TTFTErrorP99MS: 10, CPUPerRequestMS: 1, PeakRSSMB: 90, Valid: true},
		{Client: "servebench", Scheduled: 5, Succeeded: 5, Joined: 5, TTFTErrorP50MS: 2, TTFTErrorP99MS: 14, CPUPerRequestMS: 1.2, PeakRSSMB: 100, Valid: true},
		{Client: "e12cfa1", Scheduled: 5, Succeeded: 5, Joined: 5, TTFTErrorP50MS: 0.5, TTFTErrorP99MS: 8, CPUPerRequestMS: 1.1, PeakRSSMB: 120, Valid: true},
		{Client: "e12cfa1", Scheduled: 5, Succeeded: 5, Joined: 5, TTFTErrorP50MS: 1.5, TTFTErrorP99MS: 12, CPUPerRequestMS: 1.3, PeakRSSMB: 130, Valid: false},
		{Client: "servebench", Scheduled: 5, Succeeded: 5, Joined: 5, TTFTErrorP50MS: 2.4, TTFTErrorP99MS: 18, CPUPerRequestMS: 1.0, PeakRSSMB: 110, Valid: true},
		{Client: "lean", Scheduled: 5, Succeeded: 5, Joined: 5, TTFTErrorP50MS: 2, TTFTErrorP99MS: 12, CPUPerRequestMS: 1, PeakRSSMB: 100, Valid: true},
		{Client: "cli", Scheduled: 5, Succeeded: 5, Joined: 5, TTFTErrorP50MS: 3, TTFTErrorP99MS: 30, CPUPerRequestMS: 0.6, PeakRSSMB: 150, Valid: true},
	}
	r := newPairReport(phases, false, []string{"e12cfa1", "cli"})
	// servebench: p50 (2+2.4)/2 = 2.2, p99 16. e12cfa1: p50 1, p99 10,
	// so the limits are 1+1 = 2 (missed) and 10+5 = 15 (missed).
	if len(r.others) != 2 || r.others[0].phases != 2 || r.others[1].phases != 1 || r.others[0].allValid || math.Abs(r.others[0].cpuPerRequestMS-1.2) > 1e-9 {
		t.Fatalf("others %+v", r.others)
	}
	want := map[string][3]float64{
		"TTFT error p50 vs e12cfa1": {2.2, 2, 0},
		"TTFT error p99 vs e12cfa1": {16, 15, 0},
	}
	seen := 0
	for _, c := range r.checks {
		w, ok := want[c.name]
		if !ok {
			continue
		}
		seen++
		if math.Abs(c.value-w[0]) > 1e-9 || math.Abs(c.limit-w[1]) > 1e-9 || c.pass() != (w[2] == 1) || !c.applies {
			t.Errorf("%s: value %g limit %g pass %t applies %t; want %g, %g, %t, true", c.name, c.value, c.limit, c.pass(), c.applies, w[0], w[1], w[2] == 1)
		}
	}
	if seen != 2 || len(r.checks) != 9 || r.ok() {
		t.Errorf("%d checks against e12cfa1 of %d, ok %t; want 2 of 5+2+2, false", seen, len(r.checks), r.ok())
	}
	var out strings.Builder
	r.write(&out)
	for _, s := range []string{
		"                           lean    e12cfa1 difference    ratio\n  TTFT error p50 ms       1.500      1.000     -0.500    0.67x",
		"                        e12cfa1 servebench difference    ratio\n  TTFT error p50 ms       1.000      2.200     +1.200    2.20x",
		"  peak RSS MB           125.000    105.000    -20.000    0.84x",
		"TTFT error p99 vs e12cfa1     16.000 ms  (target <= 15.000) MISSED",
		"every phase of e12cfa1 sent every request within 20 ms: no (shown, not judged)",
		// Each binary against every later one: cli's p50 3 against 1.
		"                        e12cfa1        cli difference    ratio\n  TTFT error p50 ms       1.000      3.000     +2.000    3.00x",
	} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("the report lacks %q:\n%s", s, out.String())
		}
	}
	if strings.Count(out.String(), "3     e12cfa1 ") != 1 {
		t.Errorf("phase 3's row is not labelled e12cfa1:\n%s", out.String())
	}
}

// TestStartProfilesWritesATrace writes the profiles and an execution
// trace, which opens with the runtime's trace header.
func TestStartProfilesWritesATrace(t *testing.T) {
	prefix := filepath.Join(t.TempDir(), "sub", "phase1-servebench")
	stop, err := startProfiles(prefix, true)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan int)
	go func() { done <- 1 }()
	<-done
	stop()
	for _, suffix := range []string{"-cpu.pprof", "-block.pprof", "-mutex.pprof", "-allocs.pprof", "-trace.out"} {
		if info, err := os.Stat(prefix + suffix); err != nil || info.Size() == 0 {
			t.Errorf("%s: %v, size %v", suffix, err, info)
		}
	}
	data, _ := os.ReadFile(prefix + "-trace.out")
	if !strings.HasPrefix(string(data), "go 1.") || !strings.Contains(string(data[:16]), " trace") {
		t.Errorf("the trace opens with %q, not the runtime's header", data[:min(len(data), 16)])
	}
}
