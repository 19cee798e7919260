package report

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/servebench/servebench/internal/jsonmutate"
	"github.com/servebench/servebench/internal/strictjson"
	"github.com/servebench/servebench/servebench/record"
)

// requestScoreLines are entries as the scorer writes them, in many shapes,
// and hand-written variations.
func requestScoreLines(t testing.TB) [][]byte {
	rng := rand.New(rand.NewPCG(7, 11))
	statuses := record.Statuses()
	var lines [][]byte
	for i := range 400 {
		rs := RequestScore{ID: "r" + strings.Repeat("7", i%4), Status: statuses[i%len(statuses)],
			ScheduledMS: float64(rng.IntN(1e8)) / 1000, Quality: []string{"unscored", "pass", "fail"}[i%3],
			Qualified: i%2 == 0}
		opt := func(k int) *float64 {
			if (i+k)%5 == 0 {
				return nil
			}
			// short decimals, long ones as a division leaves them, tiny ones json writes with an exponent
			switch (i + k) % 3 {
			case 0:
				return new(float64(rng.IntN(1e7)) / 1000)
			case 1:
				return new(float64(rng.IntN(1e7)) / 7)
			}
			return new(float64(rng.IntN(9)+1) * 1e-9)
		}
		rs.SentMS, rs.TTFTMS, rs.TTFTFromScheduledMS, rs.TPOTMS = opt(0), opt(1), opt(2), opt(3)
		rs.E2EMS, rs.LastTokenMS, rs.ScheduleLagMS, rs.MaxGapMS = opt(4), opt(6), opt(7), opt(8)
		if i%4 != 1 {
			rs.OutputTokens = new(rng.IntN(5000))
		}
		switch i % 3 {
		case 0:
			rs.Reasons = []Reason{}
		case 1:
			rs.Reasons = []Reason{ReasonStatus, ReasonTTFT, Reason("custom")}[:1+i%3]
		}
		if i%6 == 1 {
			rs.Class, rs.Backend, rs.Adapter = "chat", "b1", "lora-a"
		}
		if i%7 == 2 {
			rs.Tenant, rs.Objective, rs.Modality, rs.CachedFraction, rs.Turn = "t1", "latency", "image+audio", "0.25-0.5", "2"
		}
		if i%5 == 3 {
			rs.Error = []string{"HTTP 503: busy", `HTTP 500: {"error":"x"}`, "naïve", "<html>"}[i%4]
			rs.QualityEvidence = "contains: want 42"
		}
		if i%9 == 4 {
			rs.FluidityMisses = new(i % 3) // 0 is written: a pointer
		}
		b, err := json.Marshal(&rs)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, b)
	}
	return append(lines,
		[]byte(`{"id":"a","id":"b"}`),
		[]byte(`{"id":"a","status":"success","scheduled_ms":0,"sent_ms":null,"ttft_ms":null,"ttft_from_scheduled_ms":null,"tpot_ms":null,"e2e_ms":null,"last_token_ms":null,"schedule_lag_ms":null,"max_gap_ms":null,"output_tokens":1.5,"quality":"pass","qualified":true,"reasons":null}`),
		[]byte(`{"id":"a","status":"success","scheduled_ms":1e999,"sent_ms":null,"ttft_ms":null,"ttft_from_scheduled_ms":null,"tpot_ms":null,"e2e_ms":null,"last_token_ms":null,"schedule_lag_ms":null,"max_gap_ms":null,"output_tokens":null,"quality":"pass","qualified":true,"reasons":null}`),
		[]byte(` { "reasons" : [ "tpot" , "e2e" ] , "id" : "a" , "status" : "timeout" , "scheduled_ms" : -0 , "sent_ms" : 1E2 , "ttft_ms" : null , "ttft_from_scheduled_ms" : null , "tpot_ms" : null , "e2e_ms" : 3 , "last_token_ms" : null , "schedule_lag_ms" : null , "max_gap_ms" : null , "output_tokens" : 12 , "quality" : "fail" , "qualified" : false } `),
		[]byte(`{"id":"a","status":"success","scheduled_ms":0,"sent_ms":null,"ttft_ms":null,"ttft_from_scheduled_ms":null,"tpot_ms":null,"e2e_ms":null,"last_token_ms":null,"schedule_lag_ms":null,"max_gap_ms":null,"output_tokens":null,"quality":"pass","qualified":null,"reasons":[]}`),
		[]byte(`{"id":"a","status":"success","scheduled_ms":0,"sent_ms":null,"ttft_ms":null,"ttft_from_scheduled_ms":null,"tpot_ms":null,"e2e_ms":null,"last_token_ms":null,"schedule_lag_ms":null,"max_gap_ms":null,"output_tokens":null,"quality":"pass","qualified":true}`),
		[]byte(`{"id":"a","class":null,"status":"success","scheduled_ms":0,"sent_ms":null,"ttft_ms":null,"ttft_from_scheduled_ms":null,"tpot_ms":null,"e2e_ms":null,"last_token_ms":null,"schedule_lag_ms":null,"max_gap_ms":null,"output_tokens":null,"quality":"pass","qualified":true,"reasons":[]}`),
		[]byte(`{"id":"a","status":"success","scheduled_ms":0,"sent_ms":null,"ttft_ms":null,"ttft_from_scheduled_ms":null,"tpot_ms":null,"e2e_ms":null,"last_token_ms":null,"schedule_lag_ms":null,"max_gap_ms":null,"output_tokens":null,"quality":"pass","qualified":true,"reasons":[],"extra":1}`),
		[]byte(`{"ID":"a"}`),
		[]byte(`{}`),
	)
}

// TestRequestScoreFastMatchesStrict checks that every line the fast path
// accepts is accepted by strictjson with the same value, that the plain
// lines the scorer writes are accepted, and that mutated lines never
// slip through the fast path when the strict decoder refuses them.
func TestRequestScoreFastMatchesStrict(t *testing.T) {
	var reuse RequestScore
	var names stringTable
	accepted := 0
	check := func(line []byte) {
		fastOK := decodeRequestScoreFast(line, &reuse, &names)
		var strict RequestScore
		strictErr := strictjson.Decode(line, &strict)
		if !fastOK {
			return
		}
		accepted++
		if strictErr != nil {
			t.Fatalf("fast path accepted a line strictjson refuses (%v): %s", strictErr, line)
		}
		if !reflect.DeepEqual(reuse, strict) {
			t.Fatalf("fast and strict decodes differ for %s:\nfast   %+v\nstrict %+v", line, reuse, strict)
		}
	}
	lines := requestScoreLines(t)
	for i, line := range lines {
		check(line)
		plain := !strings.Contains(string(line), `\`) && !strings.Contains(string(line), "naïve")
		if i < 400 && plain && !decodeRequestScoreFast(line, &reuse, &names) {
			t.Fatalf("fast path refused a plain scorer line: %s", line)
		}
	}
	// The hand-written lines: only the spaced one, with its keys out of
	// order, is plain; the others are each refused by the strict decoder.
	if !decodeRequestScoreFast(lines[403], &reuse, &names) || reuse.Status != record.StatusTimeout ||
		*reuse.SentMS != 100 || *reuse.E2EMS != 3 || !reflect.DeepEqual(reuse.Reasons, []Reason{ReasonTPOT, ReasonE2E}) {
		t.Fatalf("spaced line: %+v", reuse)
	}
	if accepted < 300 {
		t.Fatalf("fast path accepted only %d lines", accepted)
	}
	jsonmutate.Each(13, lines, 20000, check)
}

// TestRequestScoreFastEntriesOwnTheirValues checks that an entry the fast
// path decoded keeps its values when the next line is decoded into the
// same entry, as a reader that copies the entry (LoadRequests) relies on.
func TestRequestScoreFastEntriesOwnTheirValues(t *testing.T) {
	lines := requestScoreLines(t)
	var names stringTable
	var rs RequestScore
	var kept []RequestScore
	for _, line := range lines[:400] {
		if decodeRequestScoreFast(line, &rs, &names) {
			kept = append(kept, rs)
		}
	}
	k := 0
	for _, line := range lines[:400] {
		var strict RequestScore
		var again RequestScore
		if !decodeRequestScoreFast(line, &again, &names) {
			continue
		}
		if err := strictjson.Decode(line, &strict); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(kept[k], strict) {
			t.Fatalf("entry %d changed after later lines were decoded:\nkept   %+v\nstrict %+v", k, kept[k], strict)
		}
		k++
	}
}

// TestReadRequestScoresMixesFastAndStrictLines reads a file of plain
// lines, lines only the strict decoder takes (escapes, non-ASCII text) and
// a line longer than the reader's buffer, and gets the strict decoder's
// entries for every one, in order.
func TestReadRequestScoresMixesFastAndStrictLines(t *testing.T) {
	var want []RequestScore
	var file []byte
	add := func(rs RequestScore) {
		b, err := json.Marshal(&rs)
		if err != nil {
			t.Fatal(err)
		}
		file = append(append(file, b...), '\n')
		var strict RequestScore
		if err := strictjson.Decode(b, &strict); err != nil {
			t.Fatal(err)
		}
		want = append(want, strict)
	}
	add(RequestScore{ID: "plain", Status: record.StatusSuccess, SentMS: new(1.25), Quality: "pass", Qualified: true, Reasons: []Reason{}})
	add(RequestScore{ID: "escaped", Status: record.StatusHTTPError, Error: `HTTP 500: {"error":"boom"}`, Reasons: []Reason{ReasonStatus}})
	add(RequestScore{ID: "long", Status: record.StatusHTTPError, Error: strings.Repeat("x", 300<<10), Reasons: []Reason{ReasonStatus}})
	add(RequestScore{ID: "naïve", Status: record.StatusSuccess, OutputTokens: new(0)})
	add(RequestScore{ID: "last", Status: record.StatusTimeout, ScheduledMS: 9.5})
	path := filepath.Join(t.TempDir(), record.RequestsFile)
	if err := os.WriteFile(path, file[:len(file)-1], 0o644); err != nil { // no newline after the last line
		t.Fatal(err)
	}
	var got []RequestScore
	if err := ReadRequestScores(path, func(rs *RequestScore) error { got = append(got, *rs); return nil }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("read %d entries, want %d; first difference:\n%+v", len(got), len(want), firstDifference(got, want))
	}
}

// firstDifference is the first pair of entries that differ.
func firstDifference(got, want []RequestScore) [2]RequestScore {
	for i := range min(len(got), len(want)) {
		if !reflect.DeepEqual(got[i], want[i]) {
			return [2]RequestScore{got[i], want[i]}
		}
	}
	return [2]RequestScore{}
}

func FuzzRequestScoreFast(f *testing.F) {
	for _, l := range requestScoreLines(f) {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var fast, strict RequestScore
		var names stringTable
		if !decodeRequestScoreFast(line, &fast, &names) {
			return
		}
		if err := strictjson.Decode(line, &strict); err != nil {
			t.Fatalf("fast path accepted a line strictjson refuses (%v): %q", err, line)
		}
		if !reflect.DeepEqual(fast, strict) {
			t.Fatalf("decodes differ for %q", line)
		}
	})
}
