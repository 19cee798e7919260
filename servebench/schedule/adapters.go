package schedule

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
)

// BaseAdapter is the adapter name that means the base model itself: a
// request drawn for it is sent with the client's own model name.
const BaseAdapter = "base"

// AdapterStream is the PCG stream of the adapter draws, so that they are
// independent of the arrival draws made from the same seed: arrival unit
// k's adapter is Pick of the k-th Float64 of
// rand.New(rand.NewPCG(uint64(seed), AdapterStream)).
const AdapterStream = 0xada97e25

// AdapterMix is a weighted mix of LoRA adapters: each request of a
// schedule is sent to one of Names, drawn with probability Weights[i].
// Names are sorted and distinct; Weights are positive and sum to 1.
type AdapterMix struct {
	Names   []string
	Weights []float64
	// Assignment is how arrival units get their adapter: AssignRandom
	// (the default when empty) or AssignRoundRobin.
	Assignment string
}

// The ways an AdapterMix assigns adapters to arrival units.
const (
	// AssignRandom draws each unit's adapter from the seed, with the
	// mix's probabilities.
	AssignRandom = "random"
	// AssignRoundRobin deals the adapters in a fixed, interleaved order
	// (smooth weighted round-robin): after any k units each adapter has
	// had its weight's share of them to within one, whatever the seed.
	AssignRoundRobin = "round-robin"
)

// SetAssignment sets how the mix assigns adapters; an unknown way is an
// error naming the known ones.
func (m *AdapterMix) SetAssignment(way string) error {
	switch way {
	case "", AssignRandom:
		m.Assignment = AssignRandom
	case AssignRoundRobin:
		m.Assignment = way
	default:
		return fmt.Errorf("want %s or %s, got %q", AssignRandom, AssignRoundRobin, way)
	}
	return nil
}

// NewAdapterMix checks a mix given as name → weight and normalises the
// weights to sum to 1. A weight must be a finite positive number and a
// name must be non-empty; the error names the offending entry.
func NewAdapterMix(weights map[string]float64) (*AdapterMix, error) {
	if len(weights) == 0 {
		return nil, fmt.Errorf("give at least one NAME=WEIGHT")
	}
	m := &AdapterMix{}
	for name := range weights {
		m.Names = append(m.Names, name)
	}
	sort.Strings(m.Names)
	total := 0.0
	for _, name := range m.Names {
		w := weights[name]
		if strings.TrimSpace(name) == "" {
			return nil, fmt.Errorf("an adapter name must not be empty")
		}
		if math.IsNaN(w) || math.IsInf(w, 0) || w <= 0 {
			return nil, fmt.Errorf("%s: the weight must be a positive number, got %v", name, w)
		}
		total += w
	}
	for _, name := range m.Names {
		m.Weights = append(m.Weights, weights[name]/total)
	}
	return m, nil
}

// ParseAdapterMix parses NAME=WEIGHT,... (the --adapters flag's form).
func ParseAdapterMix(s string) (*AdapterMix, error) {
	weights := map[string]float64{}
	for _, part := range strings.Split(s, ",") {
		name, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("%q is not NAME=WEIGHT", part)
		}
		if _, dup := weights[name]; dup {
			return nil, fmt.Errorf("%s is given twice", name)
		}
		w, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			return nil, fmt.Errorf("%s: the weight %q is not a number", name, value)
		}
		weights[name] = w
	}
	return NewAdapterMix(weights)
}

// Map is the mix as name → normalised weight, the form schedule.json
// records.
func (m *AdapterMix) Map() map[string]float64 {
	out := make(map[string]float64, len(m.Names))
	for i, name := range m.Names {
		out[name] = m.Weights[i]
	}
	return out
}

// Pick is the adapter a uniform draw u in [0, 1) selects: the first name
// whose cumulative weight exceeds u.
func (m *AdapterMix) Pick(u float64) string {
	acc := 0.0
	for i, w := range m.Weights {
		acc += w
		if u < acc {
			return m.Names[i]
		}
	}
	return m.Names[len(m.Names)-1]
}

// adapterDraw draws adapters for a schedule's arrival units.
type adapterDraw struct {
	mix *AdapterMix
	rng *rand.Rand
	// credit is each adapter's running credit under round-robin: every
	// unit adds each weight, and the adapter picked pays 1.
	credit []float64
}

// newAdapterDraw seeds the draws from the schedule's seed; nil without a
// mix.
func newAdapterDraw(mix *AdapterMix, seed int64) *adapterDraw {
	if mix == nil {
		return nil
	}
	d := &adapterDraw{mix: mix, rng: rand.New(rand.NewPCG(uint64(seed), AdapterStream))}
	if mix.Assignment == AssignRoundRobin {
		d.credit = make([]float64, len(mix.Names))
	}
	return d
}

// next draws one adapter; "" without a mix.
func (d *adapterDraw) next() string {
	if d == nil {
		return ""
	}
	if d.credit == nil {
		return d.mix.Pick(d.rng.Float64())
	}
	best := 0
	for i, w := range d.mix.Weights {
		d.credit[i] += w
		if d.credit[i] > d.credit[best] {
			best = i
		}
	}
	d.credit[best]--
	return d.mix.Names[best]
}
