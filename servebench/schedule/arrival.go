package schedule

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// Arrival is an open-loop arrival process: a pure function from a seed to a
// sequence of inter-arrival gaps. It never looks at a clock or at
// completions, so it can be tested by table without running anything.
type Arrival interface {
	// Spec declares the process for schedules and reports.
	Spec() ArrivalSpec
	// Offsets realizes up to count arrival offsets (count 0: unbounded)
	// that fall before limit (limit 0: unbounded; at least one of the two
	// must be set), the first at 0. windowEnd closes the half-open arrival
	// window: limit when given, else the time the next arrival would have
	// come, so that N arrivals span N gaps.
	Offsets(count int, limit time.Duration) (offsets []time.Duration, windowEnd time.Duration, err error)
}

// NewArrival builds the open-loop process a spec declares. Replay and closed
// loop need more than a spec; use NewReplay and the runner's closed-loop
// mode for them.
func NewArrival(spec ArrivalSpec) (Arrival, error) {
	if err := spec.Check(); err != nil {
		return nil, fmt.Errorf("arrival: %w", err)
	}
	if len(spec.Phases) > 0 {
		return phasedProcess{spec: spec}, nil
	}
	switch spec.Process {
	case ProcessConstant:
		return gapProcess{spec: spec, gap: func(*rand.Rand) float64 { return 1 / spec.RateRPS }}, nil
	case ProcessPoisson:
		return gapProcess{spec: spec, gap: func(r *rand.Rand) float64 { return r.ExpFloat64() / spec.RateRPS }}, nil
	case ProcessGamma:
		scale := 1 / (spec.RateRPS * spec.Burstiness)
		return gapProcess{spec: spec, gap: func(r *rand.Rand) float64 { return gammaSample(r, spec.Burstiness) * scale }}, nil
	case ProcessBurst:
		return burstProcess{spec: spec}, nil
	}
	return nil, fmt.Errorf("arrival: %s is not built from a spec alone", spec.Process)
}

// Check says why spec's open-loop process cannot be built, as an
// *ArrivalFieldError naming the field and the process ("RateRPS: poisson
// rate must be ..., got -1"): a rate that is not a positive finite number,
// a gamma shape that is not one, a burst size below 1. An unknown process
// is a plain error. Replay and closed loop pass: they are checked where
// they are built.
func (spec ArrivalSpec) Check() error {
	p := spec.Process
	if len(spec.Phases) > 0 && p.Known() {
		if err := spec.checkPhases(); err != nil {
			return err
		}
	}
	switch {
	case !p.Known():
		_, err := ParseProcess(string(p))
		return err
	case p.Sampled() && !(spec.RateRPS > 0 && !math.IsInf(spec.RateRPS, 0)):
		return &ArrivalFieldError{Field: "RateRPS",
			Err: fmt.Errorf("%s rate must be a positive finite number of requests per second, got %v", p, spec.RateRPS)}
	case p == ProcessGamma && (!(spec.Burstiness > 0) || math.IsInf(spec.Burstiness, 0)):
		return &ArrivalFieldError{Field: "Burstiness",
			Err: fmt.Errorf("gamma burstiness must be a positive finite shape k, got %v", spec.Burstiness)}
	case p == ProcessBurst && spec.BurstSize < 1:
		return &ArrivalFieldError{Field: "BurstSize", Err: fmt.Errorf("burst size must be at least 1, got %d", spec.BurstSize)}
	}
	return nil
}

// ArrivalFieldError is an ArrivalSpec field whose value its process
// cannot take. Field is the Go field's name (RateRPS, Burstiness,
// BurstSize); a caller that took the value under another name (the
// command line's --rate, a contract's arrival.rate) reports Err under
// that name instead.
type ArrivalFieldError struct {
	Field string
	Err   error
}

// Error is "Field: what is wrong".
func (e *ArrivalFieldError) Error() string { return e.Field + ": " + e.Err.Error() }

// Unwrap returns what is wrong, without the field.
func (e *ArrivalFieldError) Unwrap() error { return e.Err }

// maxArrivals bounds an unbounded count so that a duration-limited schedule
// at an absurd rate fails clearly instead of exhausting memory.
const maxArrivals = 10_000_000

// gapProcess draws independent gaps: constant, Poisson and gamma.
type gapProcess struct {
	spec ArrivalSpec
	gap  func(*rand.Rand) float64 // seconds
}

func (p gapProcess) Spec() ArrivalSpec { return p.spec }

func (p gapProcess) Offsets(count int, limit time.Duration) ([]time.Duration, time.Duration, error) {
	if err := checkBounds(count, limit); err != nil {
		return nil, 0, err
	}
	rng := newRand(p.spec.Seed)
	var out []time.Duration
	t := 0.0 // seconds; summed in float to avoid drifting by rounding each gap
	for {
		at := seconds(t)
		if limit > 0 && at >= limit {
			return out, limit, nil
		}
		if len(out) >= maxArrivals {
			return nil, 0, fmt.Errorf("arrival: more than %d arrivals; lower the rate or the duration", maxArrivals)
		}
		out = append(out, at)
		t += p.gap(rng)
		if count > 0 && len(out) == count {
			end := seconds(t)
			if limit > 0 && end > limit {
				end = limit
			}
			return out, end, nil
		}
	}
}

// burstProcess sends groups of BurstSize requests at once, one group every
// BurstSize/Rate seconds, so the mean rate is Rate.
type burstProcess struct{ spec ArrivalSpec }

func (p burstProcess) Spec() ArrivalSpec { return p.spec }

func (p burstProcess) Offsets(count int, limit time.Duration) ([]time.Duration, time.Duration, error) {
	if err := checkBounds(count, limit); err != nil {
		return nil, 0, err
	}
	b := p.spec.BurstSize
	period := float64(b) / p.spec.RateRPS
	var out []time.Duration
	for group := 0; ; group++ {
		at := seconds(float64(group) * period)
		if limit > 0 && at >= limit {
			return out, limit, nil
		}
		for i := 0; i < b; i++ {
			if len(out) >= maxArrivals {
				return nil, 0, fmt.Errorf("arrival: more than %d arrivals; lower the rate or the duration", maxArrivals)
			}
			out = append(out, at)
			if count > 0 && len(out) == count {
				end := seconds(float64(group+1) * period)
				if limit > 0 && end > limit {
					end = limit
				}
				return out, end, nil
			}
		}
	}
}

// checkBounds insists that a realization is bounded in count or time.
func checkBounds(count int, limit time.Duration) error {
	if count < 0 || limit < 0 {
		return fmt.Errorf("arrival: count and duration must not be negative")
	}
	if count == 0 && limit == 0 {
		return fmt.Errorf("arrival: a schedule needs a request count or a duration")
	}
	return nil
}

// newRand returns the deterministic generator for a seed.
func newRand(seed int64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), 0x5e7ebe7c4))
}

// seconds converts float seconds to a Duration.
func seconds(s float64) time.Duration { return time.Duration(math.Round(s * float64(time.Second))) }

// gammaSample draws from Gamma(shape k, scale 1) by Marsaglia and Tsang's
// method; for k < 1 it boosts with U^(1/k).
func gammaSample(r *rand.Rand, k float64) float64 {
	if k < 1 {
		u := r.Float64()
		for u == 0 {
			u = r.Float64()
		}
		return gammaSample(r, k+1) * math.Pow(u, 1/k)
	}
	d := k - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}
