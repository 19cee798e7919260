package plotsvg

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// CDFSteps returns the empirical CDF of the ascending values sorted as the
// corners of a staircase to draw with plotter.PostStep: (x(0), 0), then at
// each drawn order statistic x(i) (0-based) the share (i+1)/N. Up to
// maxSteps values every step is drawn; beyond, maxSteps evenly spaced
// order statistics are, the first and the last among them. Nil when sorted
// is empty.
func CDFSteps(sorted []float64, maxSteps int) plotter.XYs {
	n := len(sorted)
	if n == 0 {
		return nil
	}
	xy := make(plotter.XYs, 0, min(n, maxSteps)+1)
	xy = append(xy, plotter.XY{X: sorted[0], Y: 0})
	add := func(i int) { xy = append(xy, plotter.XY{X: sorted[i], Y: float64(i+1) / float64(n)}) }
	if n <= maxSteps || maxSteps < 2 {
		for i := range n {
			add(i)
		}
		return xy
	}
	for k := range maxSteps {
		add(int(math.Round(float64(k) * float64(n-1) / float64(maxSteps-1))))
	}
	return xy
}

// ShareTicks labels a [0, 1] axis in quarters as percentages (0%, 25%, …
// 100%), with unlabelled twentieths between.
type ShareTicks struct{}

// Ticks returns the ticks inside [lo, hi].
func (ShareTicks) Ticks(lo, hi float64) []plot.Tick {
	var t []plot.Tick
	for k := 0; k <= 20; k++ {
		v := float64(k) / 20
		if v < lo || v > hi {
			continue
		}
		label := ""
		if k%5 == 0 {
			label = strconv.Itoa(k*5) + "%"
		}
		t = append(t, plot.Tick{Value: v, Label: label})
	}
	return t
}
