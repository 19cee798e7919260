package render

import (
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/report"
)

func TestGPUTimelineDrawsEveryReportedPointAndBreaksAtGaps(t *testing.T) {
	s := &report.GPUStats{Timeline: []report.GPUPoint{
		{AtMS: 0, PowerW: new(100.0)}, {AtMS: 500}, {AtMS: 1500, PowerW: new(300.0)}, {AtMS: 2000, PowerW: new(250.0)},
	}}
	power := gpuQuantities[2]
	c := timelineChart(power, s)
	want := [][2]float64{{0, 100}, {1500, 300}, {2000, 250}}
	if c.Empty != "" || c.N != 3 || len(c.Points) != 3 {
		t.Fatalf("chart %+v", c)
	}
	for i, p := range want {
		if c.Points[i] != p {
			t.Fatalf("point %d = %v, want %v", i, c.Points[i], p)
		}
	}
	if !strings.HasPrefix(string(c.SVG), "<svg") {
		t.Fatalf("SVG starts %.40q", c.SVG)
	}
	if memory := timelineChart(gpuQuantities[1], s); memory.Empty != "not reported by the source" || memory.SVG != "" {
		t.Fatalf("memory chart %+v", memory)
	}
}
