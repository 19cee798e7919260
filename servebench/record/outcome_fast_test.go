package record

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/servebench/servebench/internal/jsonmutate"
	"github.com/servebench/servebench/internal/strictjson"
)

// outcomeRecords are 300 records of the shapes a run writes: successes,
// failures and timeouts, with and without content, usage, media, a
// declared reusable prefix, and (every eleventh) a quality verdict.
func outcomeRecords() []Outcome {
	rng := rand.New(rand.NewPCG(3, 5))
	var records []Outcome
	for i := range 300 {
		o := Outcome{ID: "r" + strings.Repeat("x", i%3), Attempt: 1 + i%2, Class: []string{"", "chat"}[i%2],
			Status: []Status{StatusSuccess, StatusHTTPError, StatusTimeout}[i%3], ScheduledMS: float64(i) / 7,
			TerminalMS: float64(i*1000+rng.IntN(1e6)) / 1000, Error: []string{"", "HTTP 503: busy", "naïve"}[i%3]}
		if i%4 != 0 {
			o.SentMS, o.SlotMS = new(float64(i)+0.125), new(float64(i))
		}
		if i%5 != 0 {
			n := rng.IntN(70)
			o.ContentMS, o.EventTokens = make([]float64, n), make([]int, n)
			for j := range n {
				o.ContentMS[j] = float64(rng.IntN(1e9)) / 1000
				o.EventTokens[j] = 1 + rng.IntN(2)
			}
			o.OutputTokens = new(n)
			o.PromptTokens = new(256)
			if i%3 != 0 {
				o.CachedTokens = new([]int{0, 0, 64, 128}[i%4]) // 0 reported is not nil
			}
			src := TokensFromUsage
			o.TokenCountSource = &src
		}
		if i%7 == 0 {
			o.ReasoningTokens, o.LengthEnforced = new(3), new(i%2 == 0)
			k := TimeoutKind("idle")
			o.Timeout = &k
		}
		if i%13 == 1 {
			o.Items = new(i % 9) // an embeddings or rerank record
		}
		if i%6 == 2 {
			o.Images, o.ImageBytes, o.ImagePixels = 1+i%3, 1000+i, 256*256*(1+i%3)
			if i%12 == 2 {
				o.ImageTokens = new(256 * (1 + i%3)) // reported; nil otherwise, never 0 for unknown
			}
		}
		if i%9 == 4 {
			o.AudioInputs = 1
			if i%18 == 4 {
				o.AudioTokens = new(38) // reported; nil otherwise, never 0 for unknown
			}
		}
		if i%5 == 3 {
			o.ReusablePromptTokens = new(40 * (i % 2)) // a declared 0 is written
		}
		if i%11 == 0 {
			o.Quality = &Verdict{Pass: true, Check: "contains"}
			o.Text = new("hello")
		}
		records = append(records, o)
	}
	return records
}

// outcomeLines are outcomeRecords as the runner writes them, and
// variations.
func outcomeLines(t testing.TB) [][]byte {
	var lines [][]byte
	for _, o := range outcomeRecords() {
		b, err := json.Marshal(&o)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, b)
	}
	return append(lines,
		[]byte(`{"id":"a","id":"b"}`),
		[]byte(`{"id":"a","attempt":1.5,"class":"","status":"success","scheduled_ms":0,"slot_ms":null,"sent_ms":null,"first_content_ms":null,"last_content_ms":null,"first_reasoning_ms":null,"terminal_ms":1,"content_ms":null,"event_tokens":null,"output_tokens":null,"token_count_source":null,"prompt_tokens":null,"cached_tokens":null,"http_status":null,"error":"","finish_reason":"","timeout":null}`),
		[]byte(`{"id":"a","attempt":1,"class":"","status":"success","scheduled_ms":0,"slot_ms":null,"sent_ms":null,"first_content_ms":null,"last_content_ms":null,"first_reasoning_ms":null,"terminal_ms":1e999,"content_ms":[],"event_tokens":[],"output_tokens":null,"token_count_source":null,"prompt_tokens":null,"cached_tokens":null,"http_status":null,"error":"","finish_reason":"","timeout":null}`),
		[]byte(` { "id" : "a" , "attempt" : 2 , "class" : "" , "status" : "success" , "scheduled_ms" : -0 , "slot_ms" : null , "sent_ms" : 1E2 , "first_content_ms" : null , "last_content_ms" : null , "first_reasoning_ms" : null , "terminal_ms" : 1 , "content_ms" : [ ] , "event_tokens" : null , "output_tokens" : null , "token_count_source" : null , "prompt_tokens" : null , "cached_tokens" : 7 , "http_status" : null , "error" : "" , "finish_reason" : "" , "timeout" : null } `),
		[]byte(`{"ID":"a"}`),
		// Arrays with space inside, exponents, a negative zero and a
		// long mantissa: the element-by-element reads take these.
		[]byte(`{"id":"a","attempt":1,"class":"","status":"success","scheduled_ms":0,"slot_ms":null,"sent_ms":0.5,"first_content_ms":1.5,"last_content_ms":20,"first_reasoning_ms":null,"terminal_ms":21,"content_ms":[ 1.5 , 2e1,-0,1234567890.1234567],"event_tokens":[ 1 ,12,0, 3],"output_tokens":16,"token_count_source":"usage","prompt_tokens":null,"cached_tokens":null,"http_status":200,"error":"","finish_reason":"stop","timeout":null}`),
		// A status and a finish reason outside the known ones.
		[]byte(`{"id":"a","attempt":1,"class":"","status":"sideways","scheduled_ms":0,"slot_ms":null,"sent_ms":null,"first_content_ms":null,"last_content_ms":null,"first_reasoning_ms":null,"terminal_ms":1,"content_ms":null,"event_tokens":null,"output_tokens":null,"token_count_source":null,"prompt_tokens":null,"cached_tokens":null,"http_status":null,"error":"","finish_reason":"content_filter","timeout":null}`),
	)
}

// TestOutcomeFastMatchesStrict checks that every line the fast path
// accepts is accepted by strictjson with the same value, that the plain
// lines the runner writes are accepted, and that mutated lines never
// slip through the fast path when the strict decoder refuses them.
func TestOutcomeFastMatchesStrict(t *testing.T) {
	var reuse Outcome
	accepted := 0
	check := func(line []byte) {
		fastOK := DecodeFast(line, &reuse)
		var strict Outcome
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
	lines := outcomeLines(t)
	for i, line := range lines {
		check(line)
		plain := !strings.Contains(string(line), `"quality"`) && !strings.Contains(string(line), "naïve")
		if i < 300 && plain && !DecodeFast(line, &reuse) {
			t.Fatalf("fast path refused a plain runner line: %s", line)
		}
	}
	if accepted < 150 {
		t.Fatalf("fast path accepted only %d lines", accepted)
	}
	jsonmutate.Each(9, lines, 20000, check)
}

func FuzzOutcomeFast(f *testing.F) {
	for _, l := range outcomeLines(f) {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var fast, strict Outcome
		if !DecodeFast(line, &fast) {
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

// TestOutcomeCachedTokensKeepsZeroApartFromNull checks that a reported 0
// survives the writer and both decoders as 0, that an unreported count is
// written as null and read back as nil, and that a record written before
// the field existed is read strictly with the count unknown.
func TestOutcomeCachedTokensKeepsZeroApartFromNull(t *testing.T) {
	for _, want := range []*int{nil, new(0), new(64)} {
		o := Outcome{ID: "r", Attempt: 1, Status: StatusSuccess, CachedTokens: want}
		line, err := json.Marshal(&o)
		if err != nil {
			t.Fatal(err)
		}
		if want == nil && !strings.Contains(string(line), `"cached_tokens":null`) {
			t.Fatalf("an unreported count is not written as null: %s", line)
		}
		var fast, strict Outcome
		if !DecodeFast(line, &fast) {
			t.Fatalf("fast path refused %s", line)
		}
		if err := strictjson.Decode(line, &strict); err != nil {
			t.Fatal(err)
		}
		for name, got := range map[string]*int{"fast": fast.CachedTokens, "strict": strict.CachedTokens} {
			if (got == nil) != (want == nil) || (got != nil && *got != *want) {
				t.Fatalf("%s decode of %s: cached_tokens %v, want %v", name, line, got, want)
			}
		}
	}
	old := []byte(`{"id":"a","attempt":1,"class":"","status":"success","scheduled_ms":0,"slot_ms":null,"sent_ms":null,"first_content_ms":null,"last_content_ms":null,"first_reasoning_ms":null,"terminal_ms":1,"content_ms":[],"event_tokens":null,"output_tokens":null,"token_count_source":null,"prompt_tokens":12,"http_status":null,"error":"","finish_reason":"","timeout":null}`)
	var o Outcome
	if !DecodeFast(old, &o) || o.CachedTokens != nil || o.PromptTokens == nil {
		t.Fatalf("fast decode of a record without cached_tokens: cached %v", o.CachedTokens)
	}
	if err := strictjson.Decode(old, &o); err != nil || o.CachedTokens != nil || o.PromptTokens == nil {
		t.Fatalf("strict decode of a record without cached_tokens: %v, cached %v", err, o.CachedTokens)
	}
}

// The lines with space inside their arrays and with an unknown status
// take the fast path, and read as the strict decoder reads them (checked
// above): content times, token counts and the texts by hand.
func TestOutcomeFastArraysAndTexts(t *testing.T) {
	lines := outcomeLines(t)
	var o Outcome
	if !DecodeFast(lines[len(lines)-2], &o) {
		t.Fatal("refused the line with spaced arrays")
	}
	if !reflect.DeepEqual(o.ContentMS, []float64{1.5, 20, 0, 1234567890.1234567}) || !reflect.DeepEqual(o.EventTokens, []int{1, 12, 0, 3}) ||
		o.Status != StatusSuccess || o.FinishReason != "stop" {
		t.Fatalf("read %v, %v, %q, %q", o.ContentMS, o.EventTokens, o.Status, o.FinishReason)
	}
	if !DecodeFast(lines[len(lines)-1], &o) || o.Status != "sideways" || o.FinishReason != "content_filter" {
		t.Fatalf("read %q, %q", o.Status, o.FinishReason)
	}
}
