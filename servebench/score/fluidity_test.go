package score

import (
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/record"
)

var seedFluidity = FluidityRule{FirstTokenDeadline: 300 * time.Millisecond, Cadence: 80 * time.Millisecond}

func oneEach(int) int { return 1 }

func TestFluiditySeedExamples(t *testing.T) {
	// Deadlines [300, 380, 460, 540, 620]: the worked example meets all
	// five although one gap is 120 ms (the early tokens banked slack).
	got := tokenDeadlines(seedFluidity, 0, []float64{240, 280, 320, 440, 480}, oneEach)
	if got.deadlines != 5 || got.missed != 0 {
		t.Fatalf("worked example: %+v, want 5 deadlines, 0 missed", got)
	}
	// [300, 380, 460, 580, 620]: the fourth token misses 540 although the
	// mean TPOT is 80; the deadlines restart from 580, so 620 <= 660 meets.
	got = tokenDeadlines(seedFluidity, 0, []float64{300, 380, 460, 580, 620}, oneEach)
	if got.deadlines != 5 || got.missed != 1 {
		t.Fatalf("late fourth token: %+v, want 5 deadlines, 1 missed", got)
	}
	if idx, _ := got.fluidityIndex(); idx != 0.8 {
		t.Fatalf("index %v, want 4/5", idx)
	}
}

func TestFluidityLongStallCrossesSeveralDeadlines(t *testing.T) {
	// Due at 300, 380; the second token comes at 700: it crossed 380, 460,
	// 540, 620 and 700 (1 + floor(320/80) = 5 misses); the next is due at
	// 780 and 770 meets it.
	got := tokenDeadlines(seedFluidity, 0, []float64{250, 700, 770}, oneEach)
	if got.missed != 5 || got.deadlines != 7 {
		t.Fatalf("%+v, want 5 missed of 7", got)
	}
	// A late first token: sent at 100, due at 400, arrives at 450: one
	// miss, then due at 530.
	got = tokenDeadlines(seedFluidity, 100, []float64{450, 530}, oneEach)
	if got.missed != 1 || got.deadlines != 2 {
		t.Fatalf("%+v, want 1 missed of 2", got)
	}
	// A three-token event at 300 meets 300, 380 and 460 at once.
	got = tokenDeadlines(seedFluidity, 0, []float64{300}, func(int) int { return 3 })
	if got.missed != 0 || got.deadlines != 3 {
		t.Fatalf("%+v", got)
	}
}

func TestFluidityInTheReport(t *testing.T) {
	trace := `{"window_ms": [0, 1000], "fluidity": {"first_token_deadline_ms": 300, "cadence_ms": 80},
 "requests": [{"id": "a", "scheduled_ms": 0}, {"id": "b", "scheduled_ms": 0}, {"id": "c", "scheduled_ms": 0}]}`
	events := strings.Join([]string{
		`{"id": "a", "sent_ms": 0, "terminal_ms": 500, "token_ms": [240, 280, 320, 440, 480], "status": "success", "quality_pass": null}`,
		`{"id": "b", "sent_ms": 0, "terminal_ms": 700, "token_ms": [300, 380, 460, 580, 620], "status": "success", "quality_pass": null}`,
		`{"id": "c", "sent_ms": 0, "terminal_ms": 900, "token_ms": [900], "status": "stream_error", "quality_pass": null}`,
	}, "\n")
	r, err := Trace("t.json", []byte(trace), "e.jsonl", []byte(events), Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := r.Fluidity
	if f == nil || f.Deadlines != 10 || f.MissedDeadlines != 1 || f.FirstTokenDeadlineMS != 300 || f.CadenceMS != 80 {
		t.Fatalf("fluidity %+v", f)
	}
	wantFloat(t, "index", f.Index, 0.9) // mean of 1.0 and 0.8
	if m := r.Requests[1].FluidityMisses; m == nil || *m != 1 {
		t.Fatalf("b misses %v", m)
	}
	if r.Requests[2].FluidityMisses != nil {
		t.Fatal("a failed request has a fluidity figure")
	}
	// Without a rule there is no fluidity section.
	plain := strings.Replace(trace, `"fluidity": {"first_token_deadline_ms": 300, "cadence_ms": 80},`, ``, 1)
	r, err = Trace("t.json", []byte(plain), "e.jsonl", []byte(events), Options{})
	if err != nil || r.Fluidity != nil {
		t.Fatalf("fluidity %+v err %v", r.Fluidity, err)
	}
}

func TestFluidityNeedsKnownTokenCounts(t *testing.T) {
	s := testSchedule(map[string]float64{}, "known", "unknown")
	known := success("known", 0, 0, []float64{300, 700}, 710, new(4))
	known.EventTokens = []int{1, 3}
	unknown := success("unknown", 0, 0, []float64{300, 700}, 710, new(4))
	r, err := Outcomes(s, []record.Outcome{known, unknown}, Options{Fluidity: &seedFluidity})
	if err != nil {
		t.Fatal(err)
	}
	// known: token 1 at 300 meets 300; three tokens at 700: the first is
	// due at 380 and crosses 380..700 (1 + floor(320/80) = 5 misses), the
	// next two are due at 780 and 860 and meet them.
	if m := r.Requests[0].FluidityMisses; m == nil || *m != 5 {
		t.Fatalf("known misses %v", m)
	}
	if r.Requests[1].FluidityMisses != nil || r.Fluidity.Deadlines != 8 {
		t.Fatalf("unknown %v deadlines %d", r.Requests[1].FluidityMisses, r.Fluidity.Deadlines)
	}
	if _, err := Outcomes(s, []record.Outcome{known, unknown}, Options{Fluidity: &FluidityRule{Cadence: time.Millisecond}}); err == nil {
		t.Fatal("a rule without a first-token deadline was accepted")
	}
}
