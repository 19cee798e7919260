package telemetry

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/servebench/servebench/servebench/report"
)

// DefaultMaxTimelinePoints bounds each GPU's timeline: at the default 1 s
// interval a 10-minute run keeps every reading, and a longer one keeps
// means of 2, 4, 8, ... consecutive readings.
const DefaultMaxTimelinePoints = 600

// maxErrorsKept bounds the sampling errors a report lists.
const maxErrorsKept = 8

// The quantities kept per reading, in the order of quantityOf.
const (
	qUtil = iota
	qMem
	qPower
	qClock
	qTemp
	nQuantities
)

// quantityOf returns a reading's quantities, nil where unreported or not
// finite.
func quantityOf(r *Reading) [nQuantities]*float64 {
	q := [nQuantities]*float64{r.UtilizationPercent, r.MemoryUsedMiB, r.PowerW, r.SMClockMHz, r.TemperatureC}
	for i, v := range q {
		if v != nil && !finite(*v) {
			q[i] = nil
		}
	}
	return q
}

// finite reports whether v is neither NaN nor infinite.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Recorder turns a stream of readings into report.GPUTelemetry with
// bounded memory: the statistics and the energy are accumulated over every
// reading, and each GPU's timeline keeps at most maxPoints points, halving
// its resolution (each point then the mean of twice as many consecutive
// readings) whenever it fills. The result depends only on the readings and
// their order, never on when Summary is called.
type Recorder struct {
	start     time.Time
	maxPoints int
	origin    *time.Time
	originMS  float64
	gpus      map[int]*gpuAcc
	errors    []string
	dropped   int
}

// NewRecorder starts a recorder whose times are counted from start, keeping
// at most maxPoints timeline points per GPU (DefaultMaxTimelinePoints when
// below 2; rounded down to an even number).
func NewRecorder(start time.Time, maxPoints int) *Recorder {
	if maxPoints < 2 {
		maxPoints = DefaultMaxTimelinePoints
	}
	return &Recorder{start: start, maxPoints: maxPoints &^ 1, gpus: map[int]*gpuAcc{}}
}

// atMS places a reading on the recorder's time line. The source's clock may
// differ from this machine's (nvidia-smi's own timestamps, a remote
// exporter), so the first reading is placed when it arrived and every
// later one by its distance from the first on the source's clock.
func (rec *Recorder) atMS(at, arrived time.Time) float64 {
	if rec.origin == nil {
		rec.origin = &at
		rec.originMS = millis(arrived.Sub(rec.start))
	}
	return rec.originMS + millis(at.Sub(*rec.origin))
}

// Add records one reading that arrived at the given time.
func (rec *Recorder) Add(r Reading, arrived time.Time) {
	g := rec.gpus[r.GPU]
	if g == nil {
		g = &gpuAcc{index: r.GPU, stride: 1}
		rec.gpus[r.GPU] = g
	}
	if r.UUID != "" {
		g.uuid = r.UUID
	}
	if r.Name != "" {
		g.name = r.Name
	}
	g.add(rec, rec.atMS(r.At, arrived), quantityOf(&r), r.EnergyMJ)
}

// Warn records a sampling error; only the first few are kept.
func (rec *Recorder) Warn(err error) {
	if len(rec.errors) < maxErrorsKept {
		rec.errors = append(rec.errors, err.Error())
		return
	}
	rec.dropped++
}

// Summary returns what the readings so far say. EnergyJ is the sum over the
// GPUs, nil when any GPU's energy is unknown.
func (rec *Recorder) Summary(source string, interval time.Duration) *report.GPUTelemetry {
	t := &report.GPUTelemetry{Status: report.GPUTelemetrySampled, Source: source,
		SampleIntervalMS: millis(interval), GPUs: []report.GPUStats{}}
	indices := make([]int, 0, len(rec.gpus))
	for i := range rec.gpus {
		indices = append(indices, i)
	}
	slices.Sort(indices)
	total, methods := 0.0, map[string]bool{}
	known := len(indices) > 0
	for _, i := range indices {
		s, note := rec.gpus[i].summary(rec.maxPoints)
		if note != "" {
			t.Errors = append(t.Errors, note)
		}
		if s.EnergyJ == nil {
			known = false
		} else {
			total += *s.EnergyJ
			methods[s.EnergyMethod] = true
		}
		t.GPUs = append(t.GPUs, s)
	}
	if len(indices) == 0 {
		t.Errors = append(t.Errors, "no GPU reading arrived during the measurement")
	}
	if known {
		t.EnergyJ = ptr(total)
		t.EnergyMethod = report.EnergyMixed
		if len(methods) == 1 {
			for m := range methods {
				t.EnergyMethod = m
			}
		}
	}
	t.Errors = append(t.Errors, rec.errors...)
	if rec.dropped > 0 {
		t.Errors = append(t.Errors, fmt.Sprintf("and %d more sampling errors", rec.dropped))
	}
	return t
}

// statAcc accumulates one quantity's mean and max.
type statAcc struct {
	sum, max float64
	n        int
}

func (s *statAcc) add(v float64) {
	if s.n == 0 || v > s.max {
		s.max = v
	}
	s.sum += v
	s.n++
}

func (s *statAcc) stat() report.GPUStat {
	if s.n == 0 {
		return report.GPUStat{}
	}
	return report.GPUStat{Mean: ptr(s.sum / float64(s.n)), Max: ptr(s.max)}
}

// pointAcc accumulates one timeline point.
type pointAcc struct {
	n      int
	atSum  float64
	sums   [nQuantities]float64
	counts [nQuantities]int
}

func (p *pointAcc) merge(o *pointAcc) {
	p.n += o.n
	p.atSum += o.atSum
	for i := range p.sums {
		p.sums[i] += o.sums[i]
		p.counts[i] += o.counts[i]
	}
}

func (p *pointAcc) point() report.GPUPoint {
	mean := func(i int) *float64 {
		if p.counts[i] == 0 {
			return nil
		}
		return ptr(p.sums[i] / float64(p.counts[i]))
	}
	return report.GPUPoint{AtMS: p.atSum / float64(p.n), UtilizationPercent: mean(qUtil), MemoryUsedMiB: mean(qMem),
		PowerW: mean(qPower), SMClockMHz: mean(qClock), TemperatureC: mean(qTemp)}
}

// gpuAcc accumulates one GPU's readings.
type gpuAcc struct {
	index      int
	uuid, name string
	samples    int
	first, at  float64
	stats      [nQuantities]statAcc

	// Power integration: the trapezoid rule between consecutive readings
	// that carry a power value.
	integral trapezoid
	counter  energyCounter
	points   []pointAcc
	pending  pointAcc
	stride   int
}

func (g *gpuAcc) add(rec *Recorder, atMS float64, q [nQuantities]*float64, energyMJ *float64) {
	if g.samples == 0 {
		g.first = atMS
	}
	g.samples++
	g.at = atMS
	p := pointAcc{n: 1, atSum: atMS}
	for i, v := range q {
		if v == nil {
			continue
		}
		g.stats[i].add(*v)
		p.sums[i], p.counts[i] = *v, 1
	}
	if q[qPower] != nil {
		g.integral.add(atMS, *q[qPower])
	}
	if energyMJ != nil && finite(*energyMJ) {
		g.counter.add(*energyMJ)
	}
	g.pending.merge(&p)
	if g.pending.n == g.stride {
		g.points = append(g.points, g.pending)
		g.pending = pointAcc{}
		if len(g.points) >= rec.maxPoints {
			g.points = halve(g.points)
			g.stride *= 2
		}
	}
}

// halve merges each pair of consecutive points.
func halve(points []pointAcc) []pointAcc {
	out := points[:0]
	for i := 0; i+1 < len(points); i += 2 {
		p := points[i]
		p.merge(&points[i+1])
		out = append(out, p)
	}
	if len(points)%2 == 1 {
		out = append(out, points[len(points)-1])
	}
	return out
}

// summary returns the GPU's summary and a note when its energy counter could
// not be used.
func (g *gpuAcc) summary(maxPoints int) (report.GPUStats, string) {
	s := report.GPUStats{Index: g.index, UUID: g.uuid, Name: g.name, Samples: g.samples, SpanMS: [2]float64{g.first, g.at},
		UtilizationPercent: g.stats[qUtil].stat(), MemoryUsedMiB: g.stats[qMem].stat(), PowerW: g.stats[qPower].stat(),
		SMClockMHz: g.stats[qClock].stat(), TemperatureC: g.stats[qTemp].stat(), TimelineStride: g.stride}
	points := g.points
	if g.pending.n > 0 {
		points = append(slices.Clone(points), g.pending)
	}
	s.Timeline = make([]report.GPUPoint, 0, min(len(points), maxPoints))
	for i := range points {
		s.Timeline = append(s.Timeline, points[i].point())
	}
	note := ""
	switch e, ok := g.counter.joules(); {
	case ok:
		s.EnergyJ, s.EnergyMethod = ptr(e), report.EnergyFromCounter
	default:
		if g.counter.broken != "" {
			note = fmt.Sprintf("GPU %d: %s; energy integrated from power instead", g.index, g.counter.broken)
		}
		if e, ok := g.integral.joules(); ok {
			s.EnergyJ, s.EnergyMethod = ptr(e), report.EnergyFromIntegratedPower
		}
	}
	return s, note
}

// trapezoid integrates power (W) over time (ms) with the trapezoid rule:
// the sum over consecutive readings of (p[i] + p[i+1]) / 2 × (t[i+1] − t[i]).
type trapezoid struct {
	n         int
	lastMS    float64
	lastW     float64
	integralJ float64
}

func (t *trapezoid) add(atMS, watts float64) {
	if t.n > 0 {
		dt := atMS - t.lastMS
		if dt < 0 { // a clock stepped back: that interval counts nothing
			dt = 0
		}
		t.integralJ += (t.lastW + watts) / 2 * dt / 1000
	}
	t.n++
	t.lastMS, t.lastW = atMS, watts
}

// joules is the integral; ok is false with fewer than two readings.
func (t *trapezoid) joules() (float64, bool) { return t.integralJ, t.n >= 2 }

// energyCounter follows a total-energy counter in millijoules.
type energyCounter struct {
	n           int
	first, last float64
	broken      string
}

func (c *energyCounter) add(mJ float64) {
	if c.n == 0 {
		c.first = mJ
	} else if mJ < c.last && c.broken == "" {
		c.broken = fmt.Sprintf("the energy counter went down from %.0f mJ to %.0f mJ (driver reloaded or counter reset)", c.last, mJ)
	}
	c.n++
	c.last = mJ
}

// joules is the counter's increase in joules; ok is false with fewer than
// two readings or after the counter went down.
func (c *energyCounter) joules() (float64, bool) {
	if c.n < 2 || c.broken != "" {
		return 0, false
	}
	return (c.last - c.first) / 1000, true
}

// millis is a duration in milliseconds, as the report's times are.
func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
