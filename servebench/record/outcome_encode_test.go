package record

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// encoderLine is the line encoding/json's Encoder writes for o, as the
// writer wrote every record before it had a fast path.
func encoderLine(t testing.TB, o *Outcome) ([]byte, error) {
	t.Helper()
	var buf bytes.Buffer
	err := json.NewEncoder(&buf).Encode(o)
	return buf.Bytes(), err
}

// TestAppendOutcomeLineMatchesEncoder checks that the fast path writes
// exactly encoding/json's bytes for every record it takes, that it takes
// every plain record of outcomeRecords, and that it declines the records
// it must leave to encoding/json.
func TestAppendOutcomeLineMatchesEncoder(t *testing.T) {
	edge := []Outcome{
		{ID: "f", Status: StatusSuccess, ScheduledMS: 1e-6, TerminalMS: 9.99e-7},
		{ID: "f", Status: StatusSuccess, ScheduledMS: 1e21, TerminalMS: 1e20},
		{ID: "f", Status: StatusSuccess, ScheduledMS: math.Copysign(0, -1), TerminalMS: 5e-324},
		{ID: "f", Status: StatusSuccess, ScheduledMS: math.MaxFloat64, TerminalMS: -1.5e-9, ContentMS: []float64{}, EventTokens: []int{}},
		{ID: "f", Status: StatusSuccess, SlotMS: new(1e-10), TimeoutDueMS: new(123456.789), LengthEnforced: new(false)},
		{ID: "", Status: "", Attempt: -3, Images: -1, Reason: ReasonSessionTruncated, Backend: "b~1", Tenant: "t 1", Objective: "o", Adapter: "base"},
	}
	declined := []Outcome{
		{ID: "a<b", Status: StatusSuccess},
		{ID: "a", Error: "x & y", Status: StatusSuccess},
		{ID: "a", Error: `say "hi"`, Status: StatusSuccess},
		{ID: "a", Error: `C:\path`, Status: StatusSuccess},
		{ID: "a", Error: "line\nbreak", Status: StatusSuccess},
		{ID: "a", Error: "naïve", Status: StatusSuccess},
		{ID: "a", Tenant: "\x7f", Status: StatusSuccess},
		{ID: "a", Status: StatusSuccess, Text: new("hi")},
		{ID: "a", Status: StatusSuccess, ToolCalls: []ToolCall{{Name: "f"}}},
		{ID: "a", Status: StatusSuccess, Quality: &Verdict{Pass: true}},
		{ID: "a", Status: StatusSuccess, SpeculativeDecoding: &SpeculativeDecoding{}},
	}
	taken := 0
	for i, o := range append(append(outcomeRecords(), edge...), declined...) {
		want, err := encoderLine(t, &o)
		if err != nil {
			t.Fatal(err)
		}
		prefix := []byte("kept")
		got, ok := appendOutcomeLine(prefix, &o)
		plain := o.Quality == nil && o.Text == nil && !strings.ContainsAny(o.Error, "ï")
		if i >= len(outcomeRecords())+len(edge) {
			plain = false
		}
		if ok != plain {
			t.Fatalf("record %d: fast path took it: %v, want %v: %s", i, ok, plain, want)
		}
		if !ok {
			if string(got) != "kept" {
				t.Fatalf("record %d: declined, but changed the buffer to %q", i, got)
			}
			continue
		}
		taken++
		if !bytes.Equal(got[len("kept"):], want) || string(got[:4]) != "kept" {
			t.Fatalf("record %d:\nfast    %s\nencoder %skept prefix %q", i, got[4:], want, got[:4])
		}
	}
	// Of the 300 records, 100 carry the error "naïve" (i%3 == 2) and 19
	// more a verdict (i%11 == 0 but not i%33 == 11): 181 are plain, and
	// so are the 6 edge cases.
	if taken != 187 {
		t.Fatalf("the fast path took %d records, want 187", taken)
	}
}

// TestAppendOutcomeLineByHand checks a whole line written out by hand
// from the format's rules: keys in the struct's order, null for the
// unknown times and counts, omitted empties, floats at their shortest.
func TestAppendOutcomeLineByHand(t *testing.T) {
	src := TokensFromUsage
	o := Outcome{ID: "r7", Attempt: 1, Class: "chat", Status: StatusSuccess, ScheduledMS: 12.5,
		SlotMS: new(12.5), SentMS: new(12.625), FirstContentMS: new(60.25), LastContentMS: new(80.0),
		TerminalMS: 81.001, ContentMS: []float64{60.25, 70, 80}, EventTokens: []int{1, 2, 1},
		OutputTokens: new(4), TokenCountSource: &src, PromptTokens: new(32), CachedTokens: new(0),
		HTTPStatus: new(200), FinishReason: "length", Tenant: "team-a"}
	want := `{"id":"r7","attempt":1,"class":"chat","status":"success","scheduled_ms":12.5,"slot_ms":12.5,` +
		`"sent_ms":12.625,"first_content_ms":60.25,"last_content_ms":80,"first_reasoning_ms":null,` +
		`"terminal_ms":81.001,"content_ms":[60.25,70,80],"event_tokens":[1,2,1],"output_tokens":4,` +
		`"token_count_source":"usage","prompt_tokens":32,"cached_tokens":0,"http_status":200,"error":"",` +
		`"finish_reason":"length","timeout":null,"tenant":"team-a"}` + "\n"
	got, ok := appendOutcomeLine(nil, &o)
	if !ok || string(got) != want {
		t.Fatalf("took it: %v\ngot  %s\nwant %s", ok, got, want)
	}
}

// TestAppendOutcomeLineDeclinesNonFinite checks that NaN and the
// infinities leave the record to encoding/json, which refuses it, so the
// writer reports the error as before.
func TestAppendOutcomeLineDeclinesNonFinite(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		for _, o := range []Outcome{{ID: "a", TerminalMS: v}, {ID: "a", SentMS: &v}, {ID: "a", ContentMS: []float64{1, v}}} {
			if _, ok := appendOutcomeLine(nil, &o); ok {
				t.Fatalf("took a record holding %v", v)
			}
			if _, err := encoderLine(t, &o); err == nil {
				t.Fatalf("encoding/json wrote a record holding %v", v)
			}
		}
	}
}

// TestWriterReadsBackBothPaths writes records through the fast path and
// through encoding/json (one with response text) to a file, and reads
// them back equal, in order.
func TestWriterReadsBackBothPaths(t *testing.T) {
	path := filepath.Join(t.TempDir(), "outcomes.jsonl")
	w, err := CreateWriter(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	records := outcomeRecords()[:40]
	for i := range records {
		if err := w.Write(&records[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := ReadOutcomes(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, records) {
		t.Fatalf("read back %d records, differing from the %d written", len(got), len(records))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(data, []byte(`"quality"`)); n != 4 {
		t.Fatalf("%d records with a verdict in the file, want 4 (records 0, 11, 22, 33)", n)
	}
}

func FuzzAppendOutcomeLine(f *testing.F) {
	f.Add("r1", "HTTP 503: busy", "team", 12.5, 1e-7, 3e21, 64, 2)
	f.Add("a<b", "naïve", "", math.Copysign(0, -1), 1.0, 0.0, 0, -1)
	f.Fuzz(func(t *testing.T, id, msg, tenant string, scheduled, sent, content float64, tokens, images int) {
		o := Outcome{ID: id, Error: msg, Tenant: tenant, Status: StatusSuccess, ScheduledMS: scheduled,
			SentMS: &sent, ContentMS: []float64{content, sent}, EventTokens: []int{tokens}, OutputTokens: &tokens,
			Images: images, TimeoutDueMS: &content}
		got, ok := appendOutcomeLine(nil, &o)
		want, err := encoderLine(t, &o)
		if !ok {
			if err == nil && plainText(id) && plainText(msg) && plainText(tenant) {
				t.Fatalf("declined a plain record that encoding/json writes as %s", want)
			}
			return
		}
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("fast %s\nencoder %s (%v)", got, want, err)
		}
	})
}

// plainText is whether encoding/json writes s without escapes.
func plainText(s string) bool {
	for _, c := range []byte(s) {
		if c < 0x20 || c >= 0x7f || strings.IndexByte(`"\<>&`, c) >= 0 {
			return false
		}
	}
	return true
}

// TestAppendMillisMatchesShortest checks appendMillis against strconv's
// shortest decimal for whole microseconds at every magnitude a run's
// clock reaches and beyond (to 1e12 ms, 31 years), negative ones
// included, and that it declines what it cannot write from an integer.
func TestAppendMillisMatchesShortest(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	for i := range 400000 {
		us := rng.Int64N(int64(1) << (1 + i%50)) // up to 2^50 µs ≈ 1.1e12 ms
		if i%7 == 0 {
			us = -us
		}
		v := Millis(time.Duration(us) * time.Microsecond)
		got, ok := appendMillis(nil, v)
		want := strconv.AppendFloat(nil, v, 'f', -1, 64)
		if !ok {
			if v != 0 && math.Abs(v) < 1e12 {
				t.Fatalf("declined %s (%d µs)", want, us)
			}
			continue
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%d µs: wrote %s, shortest is %s", us, got, want)
		}
	}
	for _, v := range []float64{0, math.Copysign(0, -1), 0.0005, 1.0001, 1e12, math.Nextafter(0.3, 1), math.NaN(), math.Inf(1)} {
		if b, ok := appendMillis(nil, v); ok {
			t.Fatalf("took %v, writing %s", v, b)
		}
	}
}
