package score

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// plainRun is streamedRun in the runner's plain shape: no conversation,
// one attempt per request (q8's rejected first attempt dropped and its
// second numbered 1), and besides q3 two more requests with no record,
// q11 and q23.
func plainRun(n int) (*schedule.Schedule, []record.Outcome) {
	s, outs := streamedRun(n)
	for i := range s.Entries {
		s.Entries[i].DependsOn = ""
	}
	var kept []record.Outcome
	for _, o := range outs {
		switch {
		case o.ID == "q11" || o.ID == "q23":
		case o.ID == "q8" && o.Attempt == 1:
		case o.ID == "q8":
			o.Attempt = 1
			kept = append(kept, o)
		default:
			kept = append(kept, o)
		}
	}
	return s, kept
}

// The windowed join scores a plain run as the in-memory scorer does,
// field for field, with the requests that have no record written last in
// schedule order (q3, q11, q23); with a window too small for the shuffled
// lines it declines before writing anything, and the compact path gives
// the same report.
func TestWindowedScoringMatchesInMemory(t *testing.T) {
	s, outs := plainRun(300)
	dir := writeRunDir(t, s, outs, nil)
	opts := Options{SLO: report.SLO{TTFT: 150e6}, Percentiles: []float64{99.9}}
	want, err := RunDir(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	got, err := scoreRunDirWindowed(dir, opts, &buf)
	if err != nil {
		t.Fatalf("windowed: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	var last []string
	for _, l := range lines[len(lines)-3:] {
		var rs report.RequestScore
		if err := json.Unmarshal([]byte(l), &rs); err != nil {
			t.Fatal(err)
		}
		last = append(last, rs.ID+" "+string(rs.Status))
	}
	if strings.Join(last, ", ") != "q3 not_sent, q11 not_sent, q23 not_sent" {
		t.Errorf("last entries %v, want q3, q11 and q23 not_sent in schedule order", last)
	}
	compareStreamed(t, want, got, &buf)
	if want.Breakdown["adapter"] == nil || want.PromptTokens == nil || want.OutputLengths == nil {
		t.Fatal("the fixture lost the breakdown or the audits")
	}
	// Without request entries one pass checks, hashes and scores: the same
	// report.
	one, err := scoreRunDirWindowed(dir, opts, nil)
	if err != nil {
		t.Fatalf("one pass: %v", err)
	}
	if !reflect.DeepEqual(one, got) || one.Inputs.OutcomesSHA256 != want.Inputs.OutcomesSHA256 || one.Inputs.ScheduleSHA256 != want.Inputs.ScheduleSHA256 {
		t.Fatalf("one pass differs: inputs %+v, want %+v", one.Inputs, want.Inputs)
	}

	defer func(old int) { windowLimit = old }(windowLimit)
	windowLimit = 4
	buf.Reset()
	if _, err := scoreRunDirWindowed(dir, opts, &buf); !errors.Is(err, errWindowDeclined) || buf.Len() != 0 {
		t.Fatalf("a window of 4 for shuffled lines: %v, %d bytes written; want a decline before any", err, buf.Len())
	}
	got, err = scoreRunDirStreaming(dir, opts, &buf)
	if err != nil {
		t.Fatal(err)
	}
	compareStreamed(t, want, got, &buf)
}

// What the window leaves to the compact path: a retried request, a
// conversation, a repeated schedule ID, and an outcome line whose ID the
// schedule does not hold.
func TestWindowedScoringDeclines(t *testing.T) {
	cases := map[string]func(s *schedule.Schedule, outs []record.Outcome) []record.Outcome{
		"retry": func(_ *schedule.Schedule, outs []record.Outcome) []record.Outcome {
			r := outs[0]
			r.Attempt = 2
			return append(outs, r)
		},
		"conversation": func(s *schedule.Schedule, outs []record.Outcome) []record.Outcome {
			s.Entries[9].DependsOn = s.Entries[8].ID
			return outs
		},
		"repeated schedule ID": func(s *schedule.Schedule, outs []record.Outcome) []record.Outcome {
			s.Entries[30].ID = s.Entries[2].ID
			return outs
		},
		"unknown ID": func(_ *schedule.Schedule, outs []record.Outcome) []record.Outcome {
			outs[5].ID = "nowhere"
			return outs
		},
	}
	for name, edit := range cases {
		s, outs := plainRun(40)
		outs = edit(s, outs)
		dir := writeRunDir(t, s, outs, nil)
		if _, err := scoreRunDirWindowed(dir, Options{}, nil); !errors.Is(err, errWindowDeclined) {
			t.Errorf("%s, one pass: %v, want a decline", name, err)
		}
		var buf bytes.Buffer
		if _, err := scoreRunDirWindowed(dir, Options{}, &buf); !errors.Is(err, errWindowDeclined) || buf.Len() != 0 {
			t.Errorf("%s, with the entries: %v, %d bytes written; want a decline before any", name, err, buf.Len())
		}
	}
}

// The ID check spills sorted chunks and merges them: with chunks of 3,
// ten distinct IDs are found distinct, and a repeat in another chunk is
// found.
func TestDistinctIDsAcrossChunks(t *testing.T) {
	defer func(old int) { idChunk = old }(idChunk)
	idChunk = 3
	check := func(ids ...string) bool {
		d := newDistinctIDs()
		for _, id := range ids {
			d.add(id)
		}
		ok, err := d.unique()
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !check("a", "b", "c", "d", "e", "f", "g", "h", "i", "j") {
		t.Error("ten distinct IDs reported a repeat")
	}
	if check("a", "b", "c", "d", "e", "f", "g", "b", "i", "j") {
		t.Error("b in the first and third chunks not found")
	}
	if check("x", "x") || !check("x", "y") {
		t.Error("one chunk: the repeat of x")
	}
}
