package schedule

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
)

func TestParseAdapterMixNormalises(t *testing.T) {
	m, err := ParseAdapterMix("sql=5, chat=3,base=2")
	if err != nil {
		t.Fatal(err)
	}
	// Sorted names; 5, 3 and 2 of 10.
	want := map[string]float64{"base": 0.2, "chat": 0.3, "sql": 0.5}
	if strings.Join(m.Names, ",") != "base,chat,sql" {
		t.Fatalf("names %v", m.Names)
	}
	for i, name := range m.Names {
		if m.Weights[i] != want[name] {
			t.Errorf("%s: weight %v, want %v", name, m.Weights[i], want[name])
		}
	}
}

func TestParseAdapterMixRefusesBadWeights(t *testing.T) {
	for in, want := range map[string]string{
		"sql=0":          "sql: the weight must be a positive number",
		"sql=-1,chat=1":  "sql: the weight must be a positive number",
		"sql=NaN":        "sql: the weight must be a positive number",
		"sql=+Inf":       "sql: the weight must be a positive number",
		"sql=x":          `sql: the weight "x" is not a number`,
		"sql":            `"sql" is not NAME=WEIGHT`,
		"=1":             `"=1" is not NAME=WEIGHT`,
		"sql=1,sql=2":    "sql is given twice",
		"sql=1,,chat=1":  `"" is not NAME=WEIGHT`,
		"sql=1, chat=-0": "chat: the weight must be a positive number",
	} {
		if _, err := ParseAdapterMix(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want one containing %q", in, err, want)
		}
	}
}

func TestPickFollowsTheCumulativeWeights(t *testing.T) {
	m, _ := NewAdapterMix(map[string]float64{"a": 1, "b": 1, "c": 2})
	// Cumulative 0.25, 0.5, 1.
	for u, want := range map[float64]string{0: "a", 0.2499: "a", 0.25: "b", 0.4999: "b", 0.5: "c", 0.9999: "c"} {
		if got := m.Pick(u); got != want {
			t.Errorf("Pick(%v) = %s, want %s", u, got, want)
		}
	}
}

// TestScheduleDrawsAdaptersFromItsSeed derives the expected adapters from
// the same seeded draw the schedule documents (AdapterStream), one per
// arrival unit, and wants them in schedule.json, read back and covered by
// its hash.
func TestScheduleDrawsAdaptersFromItsSeed(t *testing.T) {
	w := mustWorkload(t, `{"id":"a","prompt":"x","max_tokens":2}`+"\n"+
		`{"id":"c1","conversation":"c","turn":1,"prompt":"y","max_tokens":2}`+"\n"+
		`{"id":"c2","conversation":"c","turn":2,"prompt":"z","max_tokens":2}`)
	mix, err := ParseAdapterMix("sql=0.5,chat=0.3,base=0.2")
	if err != nil {
		t.Fatal(err)
	}
	build := func(seed int64) *Schedule {
		a, _ := NewArrival(ArrivalSpec{Process: "poisson", RateRPS: 100, Seed: seed})
		s, err := Build(Plan{Workload: w, Arrival: a, Count: 400, Adapters: mix, RunID: "r"})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := build(11)
	rng := rand.New(rand.NewPCG(11, AdapterStream))
	counts := map[string]int{}
	unit := 0
	var unitAdapter string
	for i, e := range s.Entries {
		if e.DependsOn == "" {
			unit++
			u := rng.Float64()
			switch {
			case u < 0.2:
				unitAdapter = "base"
			case u < 0.5:
				unitAdapter = "chat"
			default:
				unitAdapter = "sql"
			}
		}
		if e.Adapter != unitAdapter {
			t.Fatalf("entry %d (%s): adapter %q, want %q from the seeded draw", i, e.ID, e.Adapter, unitAdapter)
		}
		counts[e.Adapter]++
	}
	if unit != 400 || len(counts) != 3 {
		t.Fatalf("%d units, counts %v", unit, counts)
	}
	if s.Adapters["sql"] != 0.5 || s.Adapters["chat"] != 0.3 || s.Adapters["base"] != 0.2 {
		t.Errorf("schedule's mix %v", s.Adapters)
	}
	other := build(12)
	same := true
	for i := range s.Entries {
		same = same && s.Entries[i].Adapter == other.Entries[i].Adapter
	}
	if same {
		t.Error("another seed drew the same adapters")
	}

	dir := t.TempDir()
	path := filepath.Join(dir, record.ScheduleFile)
	sum, err := Write(path, s)
	if err != nil {
		t.Fatal(err)
	}
	back, sum2, err := Read(path)
	if err != nil || sum != sum2 {
		t.Fatalf("read back: %v, hash %s vs %s", err, sum, sum2)
	}
	c, err := ReadCompact(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.Entries {
		if back.Entries[i].Adapter != s.Entries[i].Adapter || c.Adapter(i) != s.Entries[i].Adapter {
			t.Fatalf("entry %d: adapter %q read back as %q, compact %q", i, s.Entries[i].Adapter, back.Entries[i].Adapter, c.Adapter(i))
		}
	}
	plain := *s
	plain.Entries = append([]Entry(nil), s.Entries...)
	plain.Entries[0].Adapter = "other"
	sum3, err := Write(filepath.Join(dir, "other.json"), &plain)
	if err != nil || sum3 == sum {
		t.Errorf("a changed adapter kept the hash %s (%v)", sum3, err)
	}
}

func TestScheduleWithoutAMixHasNoAdapters(t *testing.T) {
	w := mustWorkload(t, `{"prompt":"x","max_tokens":2}`)
	a, _ := NewArrival(ArrivalSpec{Process: "poisson", RateRPS: 10, Seed: 7})
	s, _ := Build(Plan{Workload: w, Arrival: a, Count: 3})
	if s.Adapters != nil || s.Entries[0].Adapter != "" {
		t.Fatalf("adapters %v, entry %+v", s.Adapters, s.Entries[0])
	}
}

func TestPackedAdaptersFillEarlierEntries(t *testing.T) {
	var p PackedEntries
	for i, a := range []string{"", "", "x", "", "y", "x"} {
		if !p.Add(string(rune('a'+i)), "", float64(i)) || !p.SetAdapter(a) {
			t.Fatal("add refused")
		}
	}
	var got []string
	for i := range p.Len() {
		got = append(got, p.Adapter(i))
	}
	if strings.Join(got, ",") != ",,x,,y,x" {
		t.Errorf("adapters %q", got)
	}
}

// TestRoundRobinDealsTheMixInProportion: weights 0.5, 0.3, 0.2 over 10
// units give exactly 5, 3 and 2, interleaved (smooth weighted round-robin,
// worked by hand: credits after each unit's additions, the largest pays 1),
// and the same order whatever the seed.
func TestRoundRobinDealsTheMixInProportion(t *testing.T) {
	mix, err := NewAdapterMix(map[string]float64{"a": 5, "b": 3, "c": 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := mix.SetAssignment(AssignRoundRobin); err != nil {
		t.Fatal(err)
	}
	want := []string{"a", "b", "c", "a", "a", "b", "a", "c", "b", "a"}
	for _, seed := range []int64{1, 99} {
		d := newAdapterDraw(mix, seed)
		var got []string
		for range want {
			got = append(got, d.next())
		}
		if !slices.Equal(got, want) {
			t.Fatalf("seed %d: %v, want %v", seed, got, want)
		}
	}
	if err := mix.SetAssignment("weighted"); err == nil || err.Error() != `want random or round-robin, got "weighted"` {
		t.Fatalf("an unknown assignment: %v", err)
	}
}
