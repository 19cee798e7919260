package telemetry

import (
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/report"
)

// t0 is an arbitrary source-clock origin for hand-built readings.
var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// at is a reading of GPU gpu taken ms after t0.
func at(gpu int, ms float64) Reading {
	return Reading{GPU: gpu, At: t0.Add(time.Duration(ms * float64(time.Millisecond)))}
}

func f(v float64) *float64 { return &v }

// record feeds readings to a recorder whose first reading arrives at its
// start, and summarises them.
func record(maxPoints int, rs ...Reading) *report.GPUTelemetry {
	rec := NewRecorder(t0, maxPoints)
	for _, r := range rs {
		rec.Add(r, t0)
	}
	return rec.Summary("test", time.Second)
}

func eq(t *testing.T, what string, got *float64, want float64) {
	t.Helper()
	if got == nil {
		t.Fatalf("%s = nil, want %g", what, want)
	}
	if d := *got - want; d > 1e-9 || d < -1e-9 {
		t.Fatalf("%s = %g, want %g", what, *got, want)
	}
}

func TestTrapezoidIntegratesPowerOverUnevenIntervals(t *testing.T) {
	// (100+200)/2 W × 0.5 s + (200+300)/2 W × 1.0 s = 75 J + 250 J = 325 J.
	r0, r1, r2 := at(0, 0), at(0, 500), at(0, 1500)
	r0.PowerW, r1.PowerW, r2.PowerW = f(100), f(200), f(300)
	tel := record(0, r0, r1, r2)
	g := tel.GPUs[0]
	eq(t, "energy", g.EnergyJ, 325)
	if g.EnergyMethod != report.EnergyFromIntegratedPower || tel.EnergyMethod != report.EnergyFromIntegratedPower {
		t.Fatalf("method: GPU %q, total %q; want integrated_power", g.EnergyMethod, tel.EnergyMethod)
	}
	eq(t, "total energy", tel.EnergyJ, 325)
	eq(t, "mean power", g.PowerW.Mean, 200)
	eq(t, "max power", g.PowerW.Max, 300)
	if g.SpanMS != [2]float64{0, 1500} || g.Samples != 3 {
		t.Fatalf("span %v, samples %d; want [0 1500], 3", g.SpanMS, g.Samples)
	}
}

func TestEnergyCounterWinsOverIntegratedPower(t *testing.T) {
	// Counter: 1,007,000 mJ − 1,000,000 mJ = 7 J, whatever the power says.
	r0, r1, r2 := at(0, 0), at(0, 1000), at(0, 2000)
	r0.PowerW, r1.PowerW, r2.PowerW = f(100), f(100), f(100)
	r0.EnergyMJ, r1.EnergyMJ, r2.EnergyMJ = f(1_000_000), f(1_002_500), f(1_007_000)
	g := record(0, r0, r1, r2).GPUs[0]
	eq(t, "energy", g.EnergyJ, 7)
	if g.EnergyMethod != report.EnergyFromCounter {
		t.Fatalf("method %q, want counter", g.EnergyMethod)
	}
}

func TestCounterThatGoesDownFallsBackToIntegratedPower(t *testing.T) {
	r0, r1, r2 := at(0, 0), at(0, 1000), at(0, 2000)
	r0.PowerW, r1.PowerW, r2.PowerW = f(100), f(200), f(100)
	r0.EnergyMJ, r1.EnergyMJ, r2.EnergyMJ = f(5000), f(100), f(300)
	tel := record(0, r0, r1, r2)
	// 150 W × 1 s + 150 W × 1 s = 300 J.
	eq(t, "energy", tel.GPUs[0].EnergyJ, 300)
	if tel.GPUs[0].EnergyMethod != report.EnergyFromIntegratedPower {
		t.Fatalf("method %q, want integrated_power", tel.GPUs[0].EnergyMethod)
	}
	if len(tel.Errors) != 1 || !strings.Contains(tel.Errors[0], "went down from 5000 mJ to 100 mJ") {
		t.Fatalf("errors %q, want the counter reset named", tel.Errors)
	}
}

func TestStatisticsAreMeanAndMaxAndUnreportedStaysNil(t *testing.T) {
	var rs []Reading
	for i, u := range []float64{10, 30, 50} {
		r := at(0, float64(i)*1000)
		r.UtilizationPercent, r.TemperatureC, r.SMClockMHz = f(u), f(40+u/10), f(1980)
		rs = append(rs, r)
	}
	g := record(0, rs...).GPUs[0]
	eq(t, "util mean", g.UtilizationPercent.Mean, 30)
	eq(t, "util max", g.UtilizationPercent.Max, 50)
	eq(t, "temp mean", g.TemperatureC.Mean, 43)
	eq(t, "temp max", g.TemperatureC.Max, 45)
	eq(t, "clock mean", g.SMClockMHz.Mean, 1980)
	if g.MemoryUsedMiB.Mean != nil || g.PowerW.Max != nil {
		t.Fatalf("memory %v, power %v: unreported quantities must stay nil", g.MemoryUsedMiB, g.PowerW)
	}
	if g.EnergyJ != nil {
		t.Fatalf("energy %v without power or counter, want nil", *g.EnergyJ)
	}
}

func TestTotalEnergySumsGPUsAndIsNilWhenOneIsUnknown(t *testing.T) {
	a0, a1 := at(0, 0), at(0, 2000)
	a0.EnergyMJ, a1.EnergyMJ = f(0), f(4000) // 4 J by counter
	b0, b1 := at(1, 0), at(1, 2000)
	b0.PowerW, b1.PowerW = f(10), f(30) // 20 W × 2 s = 40 J integrated
	tel := record(0, a0, b0, a1, b1)
	eq(t, "total", tel.EnergyJ, 44)
	if tel.EnergyMethod != report.EnergyMixed {
		t.Fatalf("method %q, want mixed", tel.EnergyMethod)
	}
	c0 := at(2, 0) // a third GPU with one reading: energy unknown
	c0.PowerW = f(50)
	tel = record(0, a0, b0, c0, a1, b1)
	if tel.EnergyJ != nil || tel.GPUs[2].EnergyJ != nil {
		t.Fatalf("total %v, GPU 2 %v: want nil when a GPU's energy is unknown", tel.EnergyJ, tel.GPUs[2].EnergyJ)
	}
	if tel.GPUs[0].Index != 0 || tel.GPUs[1].Index != 1 || tel.GPUs[2].Index != 2 {
		t.Fatalf("GPUs not in index order: %+v", tel.GPUs)
	}
}

func TestTimelineHalvesDeterministicallyWhenFull(t *testing.T) {
	// Ten readings, power 1..10 W at 0..9 s, at most 4 points: the points
	// hold readings 1-4, 5-8 and 9-10 (stride 4, the last one partial).
	var rs []Reading
	for i := 1; i <= 10; i++ {
		r := at(0, float64(i-1)*1000)
		r.PowerW = f(float64(i))
		rs = append(rs, r)
	}
	g := record(4, rs...).GPUs[0]
	if g.TimelineStride != 4 || len(g.Timeline) != 3 {
		t.Fatalf("stride %d, %d points; want 4 and 3", g.TimelineStride, len(g.Timeline))
	}
	for i, want := range []struct{ at, power float64 }{{1500, 2.5}, {5500, 6.5}, {8500, 9.5}} {
		p := g.Timeline[i]
		if p.AtMS != want.at {
			t.Errorf("point %d at %g ms, want %g", i, p.AtMS, want.at)
		}
		eq(t, "point power", p.PowerW, want.power)
	}
	// The statistics still cover every reading: mean 5.5, max 10, and the
	// energy is the integral over all ten: 9 intervals of 1 s, Σ (i + i+1)/2 = 49.5 J.
	eq(t, "mean", g.PowerW.Mean, 5.5)
	eq(t, "max", g.PowerW.Max, 10)
	eq(t, "energy", g.EnergyJ, 49.5)
}

func TestReadingsArePlacedFromTheFirstArrival(t *testing.T) {
	start := t0
	rec := NewRecorder(start, 0)
	// The source's clock is an hour off; the first reading arrives 250 ms
	// after the start, the next one is 1 s later on the source's clock.
	r0 := Reading{GPU: 0, At: t0.Add(time.Hour), PowerW: f(1)}
	r1 := Reading{GPU: 0, At: t0.Add(time.Hour + time.Second), PowerW: f(1)}
	rec.Add(r0, start.Add(250*time.Millisecond))
	rec.Add(r1, start.Add(5*time.Second))
	g := rec.Summary("test", time.Second).GPUs[0]
	if g.SpanMS != [2]float64{250, 1250} {
		t.Fatalf("span %v, want [250 1250]", g.SpanMS)
	}
}

func TestNoReadingsIsSampledButSaysSo(t *testing.T) {
	tel := NewRecorder(t0, 0).Summary("test", time.Second)
	if tel.EnergyJ != nil || len(tel.GPUs) != 0 || len(tel.Errors) != 1 || !strings.Contains(tel.Errors[0], "no GPU reading") {
		t.Fatalf("got %+v", tel)
	}
}

func TestALongRunKeepsABoundedTimeline(t *testing.T) {
	// 100,000 readings (27 hours at 1 s): the timeline stays within 600
	// points, each the mean of a power-of-two run of readings, while the
	// mean and max still cover every reading: mean of 1..100000 = 50000.5.
	rec := NewRecorder(t0, 0)
	for i := 1; i <= 100_000; i++ {
		r := at(0, float64(i-1)*1000)
		r.UtilizationPercent = f(float64(i))
		rec.Add(r, t0)
	}
	g := rec.Summary("test", time.Second).GPUs[0]
	if len(g.Timeline) > DefaultMaxTimelinePoints || len(g.Timeline) < DefaultMaxTimelinePoints/2 {
		t.Fatalf("%d points, want between %d and %d", len(g.Timeline), DefaultMaxTimelinePoints/2, DefaultMaxTimelinePoints)
	}
	if g.TimelineStride != 256 {
		t.Fatalf("stride %d, want 256 (600 points × 256 > 100,000 > 300 × 256)", g.TimelineStride)
	}
	eq(t, "mean", g.UtilizationPercent.Mean, 50000.5)
	eq(t, "max", g.UtilizationPercent.Max, 100000)
	// The first point is the mean of readings 1..256.
	eq(t, "first point", g.Timeline[0].UtilizationPercent, 128.5)
}
