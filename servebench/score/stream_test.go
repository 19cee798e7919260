package score

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/stats"
)

// streamedRun builds a run of n requests with every kind of record the
// scorer treats apart: token-level and chunked streams, failures, a retry,
// a request with no record, a late send, a quality failure, one record
// with text and another whose error needs escaping (both decoded
// strictly), and one request outside the window.
func streamedRun(n int) (*schedule.Schedule, []record.Outcome) {
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: "open", WindowMS: [2]float64{0, float64(n) * 10}, ScheduleLagToleranceMS: 20,
		WorkloadSHA256: strings.Repeat("cd", 32)}
	var outs []record.Outcome
	for i := range n + 1 {
		id := "q" + strconv.Itoa(i)
		a := float64(i * 10)
		adapter := []string{"sql", "chat", "base", "sql"}[i%4]
		s.Entries = append(s.Entries, schedule.Entry{ID: id, Row: i, ScheduledMS: a, Class: []string{"", "chat", "code"}[i%3], Adapter: adapter,
			MaxTokens: 8, IgnoreEOS: i%5 == 2})
		if i%7 != 0 {
			s.Entries[i].PromptTokens = new(300) // the audit compares it with each record's
		}
		if i%10 == 7 {
			s.Entries[i].DependsOn = "q" + strconv.Itoa(i-1) // a conversation's second turn
		}
		if i == 3 {
			continue // never recorded: its adapter comes from the schedule
		}
		d := a + float64(rng.IntN(3000))/1000
		if i == 5 {
			d = a + 40 // late
		}
		k := 1 + rng.IntN(12)
		t := d + 50 + float64(rng.IntN(200_000))/1000
		o := record.Outcome{ID: id, Attempt: 1, Status: record.StatusSuccess, ScheduledMS: a, SlotMS: new(a), SentMS: new(d), Adapter: adapter}
		for range k {
			o.ContentMS = append(o.ContentMS, t)
			o.EventTokens = append(o.EventTokens, 1+rng.IntN(2)*(i%2))
			t += float64(rng.IntN(40_000)) / 1000
		}
		tokens := 0
		for _, e := range o.EventTokens {
			tokens += e
		}
		o.OutputTokens, o.TerminalMS = new(tokens), t+1
		o.PromptTokens = new(100 + rng.IntN(400))
		if i%4 != 1 {
			o.CachedTokens = new(rng.IntN(*o.PromptTokens + 1)) // reported, possibly 0
		}
		switch {
		case i%9 == 4:
			o.Status, o.ContentMS, o.EventTokens, o.OutputTokens = record.StatusHTTPError, nil, nil, nil
			o.HTTPStatus, o.Error = new(500), "HTTP 500 <overloaded> & \"busy\""
		case i%13 == 6:
			o.Quality = &record.Verdict{Pass: false, Check: "contains", Evidence: "no match"}
			o.Text = new("wrong")
		case i == 8:
			first := o
			first.Attempt, first.Status, first.ContentMS, first.EventTokens, first.OutputTokens = 1, record.StatusRejected, nil, nil, nil
			first.TerminalMS = d + 1
			outs = append(outs, first)
			o.Attempt, o.SentMS = 2, new(d+2)
			o.ContentMS[0] = max(o.ContentMS[0], d+2)
		}
		if i == n {
			o.ScheduledMS, s.Entries[i].ScheduledMS = float64(n)*10+5, float64(n)*10+5 // outside the window
		}
		outs = append(outs, o)
	}
	rng.Shuffle(len(outs), func(a, b int) {
		if outs[a].ID != "q8" && outs[b].ID != "q8" {
			outs[a], outs[b] = outs[b], outs[a]
		}
	})
	return s, outs
}

// TestScoreRunDirToMatchesInMemory scores the same run directories in
// memory (score.RunDir) and streamed (score.RunDirTo) and wants the same
// report, field for field, and the same request entries.
func TestScoreRunDirToMatchesInMemory(t *testing.T) {
	defer func(old int) { spillDistinct = old }(spillDistinct)
	for _, tc := range []struct {
		name  string
		n     int
		spill int
		opts  Options
	}{
		{"small", 40, 1 << 16, Options{}},
		{"slo and linear", 400, 1 << 16, Options{SLO: report.SLO{TTFT: 150 * time.Millisecond, TPOT: 20 * time.Millisecond, E2E: 400 * time.Millisecond},
			PercentileMethod: stats.Linear, Fluidity: &FluidityRule{FirstTokenDeadline: 200 * time.Millisecond, Cadence: 30 * time.Millisecond}}},
		{"spilled populations", 3000, 32, Options{SLO: report.SLO{TTFT: 100 * time.Millisecond}, Percentiles: []float64{99.9, 75}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spillDistinct = tc.spill
			s, outs := streamedRun(tc.n)
			dir := writeRunDir(t, s, outs, nil)
			want, err := RunDir(dir, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			got, err := scoreRunDirStreaming(dir, tc.opts, &buf)
			if err != nil {
				t.Fatalf("streamed: %v", err)
			}
			compareStreamed(t, want, got, &buf)
			for _, rs := range want.Requests {
				if rs.ID == "q3" && rs.Adapter != "sql" {
					t.Errorf("the request with no record has adapter %q, want the schedule's sql", rs.Adapter)
				}
			}
			if want.Valid || want.Qualified == want.Offered || want.Percentiles[record.MetricITL].N == want.Percentiles[record.MetricChunkGap].N ||
				want.PrefixCache == nil || want.PrefixCache.RequestsReporting == want.ProtocolSuccesses || len(want.Breakdown["adapter"].Values) != 3 ||
				want.PromptTokens == nil || want.PromptTokens.Mismatched == 0 || want.OutputLengths == nil || want.OutputLengths.ShortOfMaxTokens == 0 ||
				want.Breakdown["turn"] == nil || len(want.Breakdown["turn"].Values) != 2 {
				t.Fatalf("the fixture lost a case: valid %v, qualified %d of %d, itl %d chunk %d, prefix cache %+v", want.Valid, want.Qualified, want.Offered,
					want.Percentiles[record.MetricITL].N, want.Percentiles[record.MetricChunkGap].N, want.PrefixCache)
			}
			// Every level asked for is answered by the streamed report as
			// the in-memory one answers it from its raw samples.
			for _, p := range tc.opts.Percentiles {
				for _, m := range []record.Metric{record.MetricTTFT, record.MetricE2E, record.MetricChunkGap} {
					w, _, _, werr := want.Percentile(m, p)
					g, _, _, gerr := got.Percentile(m, p)
					if werr != nil || gerr != nil || w != g {
						t.Errorf("%s p%v: streamed %v (%v), in memory %v (%v)", m, p, g, gerr, w, werr)
					}
				}
			}
		})
	}
}

// TestPercentileLevelsAreChecked refuses a level the scorer cannot give.
func TestPercentileLevelsAreChecked(t *testing.T) {
	for _, p := range []float64{0, 100, -1, 101, math.NaN()} {
		if _, err := extraLevels([]float64{p}); err == nil || !strings.Contains(err.Error(), "want a level in (0, 100)") {
			t.Errorf("percentile %v: %v", p, err)
		}
	}
	got, err := extraLevels([]float64{99.9, 50, 75, 99.9, 99})
	if err != nil || !slices.Equal(got, []float64{75, 99.9}) {
		t.Errorf("levels = %v, %v; want [75 99.9] (the fixed ones and repeats dropped)", got, err)
	}
}

// compareStreamed wants got (streamed, request entries in out) to equal
// want (in memory).
func compareStreamed(t *testing.T, want, got *report.Report, out *bytes.Buffer) {
	t.Helper()
	byID := map[string]report.RequestScore{}
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rs report.RequestScore
		if err := json.Unmarshal(sc.Bytes(), &rs); err != nil {
			t.Fatal(err)
		}
		byID[rs.ID] = rs
	}
	if len(byID) != len(want.Requests) || got.Requests != nil {
		t.Fatalf("streamed %d request entries (and %d kept), want %d written", len(byID), len(got.Requests), len(want.Requests))
	}
	for _, rs := range want.Requests {
		wb, _ := json.Marshal(rs)
		gb, _ := json.Marshal(byID[rs.ID])
		if !bytes.Equal(wb, gb) {
			t.Fatalf("request %s:\nin memory %s\nstreamed  %s", rs.ID, wb, gb)
		}
	}
	w, g := *want, *got
	w.Requests, w.Samples, g.Requests, g.Samples = nil, nil, nil, nil
	if !reflect.DeepEqual(w, g) {
		wb, _ := json.MarshalIndent(w, "", " ")
		gb, _ := json.MarshalIndent(g, "", " ")
		t.Fatalf("reports differ:\nin memory %s\nstreamed  %s", wb, gb)
	}
}

// TestScoreRunDirToSeed000 turns the seed's worked trace into a run
// directory and checks the streamed scorer against the numbers the seed
// tests assert in memory: the first request's gaps 40, 40, 40, 120 give a
// mean gap of 60 and a nearest-rank p99 of 120.
func TestScoreRunDirToSeed000(t *testing.T) {
	trace := `{"window_ms": [0, 1000], "requests": [{"id": "r01", "scheduled_ms": 0}]}`
	events := `{"id": "r01", "sent_ms": 0, "terminal_ms": 500, "token_ms": [240, 280, 320, 440, 480], "status": "success", "quality_pass": true}`
	mem, err := Trace("t.json", []byte(trace), "e.jsonl", []byte(events), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := testSchedule(map[string]float64{"r01": 0}, "r01")
	o := success("r01", 0, 0, []float64{240, 280, 320, 440, 480}, 500, new(5))
	o.EventTokens = []int{1, 1, 1, 1, 1}
	var buf bytes.Buffer
	got, err := scoreRunDirStreaming(writeRunDir(t, s, []record.Outcome{o}, nil), Options{}, &buf)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []record.Metric{record.MetricITL, record.MetricTTFT, record.MetricTPOT, record.MetricE2E} {
		if !reflect.DeepEqual(got.Percentiles[m].P99, mem.Percentiles[m].P99) || !reflect.DeepEqual(got.Percentiles[m].Mean, mem.Percentiles[m].Mean) {
			t.Fatalf("%s: streamed %+v, in memory %+v", m, got.Percentiles[m], mem.Percentiles[m])
		}
	}
	wantFloat(t, "mean gap", got.Percentiles[record.MetricITL].Mean, 60)
	wantFloat(t, "p99 gap", got.Percentiles[record.MetricITL].P99, 120)
	wantFloat(t, "p50 gap", got.Percentiles[record.MetricITL].P50, 40)
	wantFloat(t, "tpot", got.Percentiles[record.MetricTPOT].P50, 60)
	if !strings.Contains(buf.String(), `"ttft_ms":240`) {
		t.Fatalf("request entry %s, want ttft 240", buf.String())
	}
}

// TestScoreRunDirToErrorsAreTheStrictOnes checks that a malformed line is
// reported as the in-memory reader reports it: file, line and field.
func TestScoreRunDirToErrorsAreTheStrictOnes(t *testing.T) {
	s, outs := runDirFixture()
	dir := writeRunDir(t, s, outs, nil)
	path := filepath.Join(dir, record.OutcomesFile)
	data, _ := os.ReadFile(path)
	data = bytes.Replace(data, []byte(`"attempt":1,"class":"","status":"timeout"`), []byte(`"attempt":1,"class":"","status":"timeout","extra":1`), 1)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, want := RunDir(dir, Options{})
	_, got := RunDirTo(dir, Options{}, nil)
	if want == nil || got == nil || got.Error() != want.Error() || !strings.Contains(got.Error(), record.OutcomesFile+":3") {
		t.Fatalf("streamed error %v, in-memory error %v", got, want)
	}
}

// TestStreamedScoringOfAShardMatchesInMemory scores shard 0 of 3 of a run:
// the streamed scorer keeps the shard's own arrival units of the whole
// schedule, as the in-memory reader's OwnShare does, and gives the same
// report and entries.
func TestStreamedScoringOfAShardMatchesInMemory(t *testing.T) {
	whole, outs := streamedRun(90)
	sharded, err := whole.ForShard(schedule.Shard{Index: 0, Count: 3})
	if err != nil {
		t.Fatal(err)
	}
	own := map[string]bool{}
	for _, e := range sharded.OwnShare().Entries {
		own[e.ID] = true
	}
	var mine []record.Outcome
	for _, o := range outs {
		if own[o.ID] {
			mine = append(mine, o)
		}
	}
	dir := writeRunDir(t, sharded, mine, nil)
	want, err := RunDir(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	got, err := scoreRunDirStreaming(dir, Options{}, &buf)
	if err != nil {
		t.Fatalf("streamed: %v", err)
	}
	compareStreamed(t, want, got, &buf)
	// q7, q17, …, q87 are second turns: 82 arrival units, of which units
	// 0, 3, …, 81 hold 37 requests, every conversation among them; q90 is
	// outside the window.
	if want.Offered != 36 || len(own) != 37 || len(want.Breakdown["turn"].Values) != 2 {
		t.Fatalf("offered %d of a share of %d, turns %v; want 36 of 37, turns 1 and 2", want.Offered, len(own), want.Breakdown["turn"])
	}
}
