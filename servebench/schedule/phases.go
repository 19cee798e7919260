package schedule

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/servebench/servebench/servebench/record"
)

// Phase is one named part of a phased arrival plan: for DurationMS, the
// run's process at RateRPS. The phases follow one another in one run with
// one schedule (a steady phase, a burst, a recovery).
type Phase struct {
	Name       string  `json:"name"`
	DurationMS float64 `json:"duration_ms"`
	RateRPS    float64 `json:"rate_rps"`
}

// Duration is the phase's length.
func (p Phase) Duration() time.Duration { return record.FromMillis(p.DurationMS) }

// PhaseBounds gives each phase's start and end on the run clock, in ms:
// the first starts at 0, each next where the previous ended.
func PhaseBounds(phases []Phase) [][2]float64 {
	out := make([][2]float64, len(phases))
	t := 0.0
	for i, p := range phases {
		out[i] = [2]float64{t, t + p.DurationMS}
		t += p.DurationMS
	}
	return out
}

// PhasesDuration is the plan's length: the phases' durations summed.
func PhasesDuration(phases []Phase) time.Duration {
	var d time.Duration
	for _, p := range phases {
		d += p.Duration()
	}
	return d
}

// PhasesMeanRate is the plan's mean offered rate: Σ rate × duration over Σ
// duration.
func PhasesMeanRate(phases []Phase) float64 {
	var n, ms float64
	for _, p := range phases {
		n += p.RateRPS * p.DurationMS
		ms += p.DurationMS
	}
	if ms == 0 {
		return 0
	}
	return n / ms
}

// ParsePhases reads a phase plan "NAME:DURATION@RATE,...", such as
// "steady:30s@10,burst:10s@40,recovery:60s@10": each phase's name, its
// duration (a Go duration) and its rate in requests per second. Every
// phase needs a name, a positive duration and a positive finite rate.
func ParsePhases(s string) ([]Phase, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("no phase: want NAME:DURATION@RATE,... such as steady:30s@10,burst:10s@40")
	}
	var out []Phase
	for i, part := range strings.Split(s, ",") {
		p, err := parsePhase(strings.TrimSpace(part))
		if err != nil {
			return nil, fmt.Errorf("phase %d (%q): %w", i+1, part, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// parsePhase reads one NAME:DURATION@RATE.
func parsePhase(s string) (Phase, error) {
	name, rest, ok := strings.Cut(s, ":")
	if !ok {
		return Phase{}, fmt.Errorf("want NAME:DURATION@RATE, such as burst:10s@40")
	}
	durText, rateText, ok := strings.Cut(rest, "@")
	if !ok {
		return Phase{}, fmt.Errorf("no rate: want NAME:DURATION@RATE, such as burst:10s@40")
	}
	p := Phase{Name: strings.TrimSpace(name)}
	if strings.TrimSpace(durText) == "" {
		return Phase{}, fmt.Errorf("no duration: want NAME:DURATION@RATE, such as burst:10s@40")
	}
	d, err := time.ParseDuration(strings.TrimSpace(durText))
	if err != nil {
		return Phase{}, fmt.Errorf("duration %q: want a duration such as 30s or 2m", durText)
	}
	p.DurationMS = record.Millis(d)
	if p.RateRPS, err = strconv.ParseFloat(strings.TrimSpace(rateText), 64); err != nil {
		return Phase{}, fmt.Errorf("rate %q: want a number of requests per second", rateText)
	}
	return p, CheckPhase(p)
}

// CheckPhase says why p cannot be run: no name (or one with a control
// character, a comma or a colon), a duration that is not positive, a rate
// that is not a positive finite number.
func CheckPhase(p Phase) error {
	switch {
	case p.Name == "":
		return fmt.Errorf("no name")
	case strings.ContainsAny(p.Name, ",:@") || strings.IndexFunc(p.Name, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0:
		return fmt.Errorf("name %q: a name holds no comma, colon, @ or control character", p.Name)
	case !(p.DurationMS > 0) || math.IsInf(p.DurationMS, 0):
		return fmt.Errorf("no duration: a phase needs a positive duration, got %v ms", p.DurationMS)
	case !(p.RateRPS > 0) || math.IsInf(p.RateRPS, 0):
		return fmt.Errorf("rate %v: a phase needs a positive finite rate in requests per second (a rate of 0 sends nothing)", p.RateRPS)
	}
	return nil
}

// WithPhases returns spec as the arrival plan of phases: its process (one
// of the sampled ones) run at each phase's rate in turn, RateRPS the plan's
// mean rate.
func (spec ArrivalSpec) WithPhases(phases []Phase) ArrivalSpec {
	spec.Phases = phases
	spec.RateRPS = PhasesMeanRate(phases)
	return spec
}

// checkPhases says why spec's phases cannot be realized.
func (spec ArrivalSpec) checkPhases() error {
	if !spec.Process.Sampled() {
		return &ArrivalFieldError{Field: "Phases", Err: fmt.Errorf("phases need a sampled process (constant, poisson, gamma or burst), got %s", spec.Process)}
	}
	for i, p := range spec.Phases {
		if err := CheckPhase(p); err != nil {
			return &ArrivalFieldError{Field: "Phases", Err: fmt.Errorf("phase %d (%s): %w", i+1, p.Name, err)}
		}
	}
	return nil
}

// phasedProcess runs its spec's process at each phase's rate, one phase
// after another; phase i draws from seed Seed + i.
type phasedProcess struct{ spec ArrivalSpec }

func (p phasedProcess) Spec() ArrivalSpec { return p.spec }

// Offsets realizes the phases in turn. The plan bounds itself: a limit
// (when given) cuts it short, and count (when given) keeps the first count
// arrivals, the window then ending where the next would have come.
func (p phasedProcess) Offsets(count int, limit time.Duration) ([]time.Duration, time.Duration, error) {
	if count < 0 || limit < 0 {
		return nil, 0, fmt.Errorf("arrival: count and duration must not be negative")
	}
	total := PhasesDuration(p.spec.Phases)
	if limit == 0 || limit > total {
		limit = total
	}
	var out []time.Duration
	var start time.Duration
	for i, ph := range p.spec.Phases {
		if start >= limit {
			break
		}
		sub := p.spec
		sub.Phases, sub.RateRPS, sub.Seed = nil, ph.RateRPS, p.spec.Seed+int64(i)
		a, err := NewArrival(sub)
		if err != nil {
			return nil, 0, err
		}
		offsets, _, err := a.Offsets(0, min(ph.Duration(), limit-start))
		if err != nil {
			return nil, 0, err
		}
		for _, o := range offsets {
			out = append(out, start+o)
		}
		if len(out) > maxArrivals {
			return nil, 0, fmt.Errorf("arrival: more than %d arrivals; lower the rates or the durations", maxArrivals)
		}
		start += ph.Duration()
	}
	if count > 0 && len(out) > count {
		return out[:count], out[count], nil
	}
	return out, limit, nil
}
