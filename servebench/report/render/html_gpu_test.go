package render_test

import (
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
)

// gpuTelemetry is one GPU read three times: power 100, 200, 300 W, memory
// not reported, 325 J integrated.
func gpuTelemetry() *report.GPUTelemetry {
	pts := []report.GPUPoint{
		{AtMS: 0, PowerW: htmlFloat(100), UtilizationPercent: htmlFloat(10), SMClockMHz: htmlFloat(1980), TemperatureC: htmlFloat(40)},
		{AtMS: 500, PowerW: htmlFloat(200), UtilizationPercent: htmlFloat(30), SMClockMHz: htmlFloat(1980), TemperatureC: htmlFloat(42)},
		{AtMS: 1500, PowerW: htmlFloat(300), UtilizationPercent: htmlFloat(50), SMClockMHz: htmlFloat(1980), TemperatureC: htmlFloat(45)},
	}
	return &report.GPUTelemetry{Status: "sampled", Source: "nvidia-smi", SampleIntervalMS: 500,
		GPUs: []report.GPUStats{{Index: 0, Name: scriptID, UUID: "GPU-aaaa", Samples: 3, SpanMS: [2]float64{0, 1500},
			UtilizationPercent: report.GPUStat{Mean: htmlFloat(30), Max: htmlFloat(50)},
			PowerW:             report.GPUStat{Mean: htmlFloat(200), Max: htmlFloat(300)},
			SMClockMHz:         report.GPUStat{Mean: htmlFloat(1980), Max: htmlFloat(1980)},
			TemperatureC:       report.GPUStat{Mean: htmlFloat(42.333), Max: htmlFloat(45)},
			EnergyJ:            htmlFloat(325), EnergyMethod: "integrated_power", Timeline: pts, TimelineStride: 1}},
		EnergyJ: htmlFloat(325), EnergyMethod: "integrated_power", Qualified: 2, OutputTokens: 14,
		JoulesPerQualifiedRequest: htmlFloat(162.5), JoulesPerOutputToken: htmlFloat(325.0 / 14)}
}

func TestHTMLShowsGPUTelemetryPerGPU(t *testing.T) {
	r := smallHTMLReport(t)
	r.GPUTelemetry = gpuTelemetry()
	page := renderHTML(t, r)
	for _, want := range []string{
		"<h2>GPU telemetry and energy</h2>",
		"Read from nvidia-smi every 500 ms",
		"<dt>Energy</dt><dd>325.0 J <span class=\"note\">(power integrated over the readings (trapezoid rule); the source has no energy counter, every GPU)</span>",
		"<dt>Joules per qualified request</dt><dd>162.500 <span class=\"note\">energy / 2 qualified requests</span>",
		"<dt>Joules per output token</dt><dd>23.2143 <span class=\"note\">energy / 14 output tokens of the successful requests</span>",
		"GPU 0 · &lt;script&gt;alert(1)&lt;/script&gt; · GPU-aaaa",
		"3 readings; each timeline point is the mean of 1 consecutive readings.",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "<script>alert") {
		t.Fatal("a GPU name was not escaped")
	}
	for first, want := range map[string][]string{
		"power (W)":         {"power (W)", "200.0", "300.0"},
		"utilisation (%)":   {"utilisation (%)", "30", "50"},
		"memory used (MiB)": {"memory used (MiB)", "n/a", "n/a"},
		"temperature (°C)":  {"temperature (°C)", "42", "45"},
		"energy over 1.5 s": {"energy over 1.5 s", "325.0 J, power integrated over the readings (trapezoid rule); the source has no energy counter", ""},
	} {
		if got := tableRow(page, first); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("row %q = %q, want %q", first, got, want)
		}
	}
	// Four quantities drawn through their three points, memory not at all.
	if n := strings.Count(page, `data-points="3"`); n != 4 {
		t.Errorf("%d timelines of 3 points, want 4", n)
	}
	if !strings.Contains(page, "<h3>memory used (MiB)</h3>\n<p class=\"note\">not reported by the source</p>") {
		t.Error("the memory timeline does not say it was not reported")
	}
}

func TestHTMLSaysWhyGPUTelemetryIsUnavailable(t *testing.T) {
	r := smallHTMLReport(t)
	r.GPUTelemetry = &report.GPUTelemetry{Status: "unavailable: nvml: libnvidia-ml.so.1 not found; nvidia-smi: nvidia-smi not found on PATH"}
	page := renderHTML(t, r)
	if !strings.Contains(page, "GPU telemetry unavailable: nvml: libnvidia-ml.so.1 not found; nvidia-smi: nvidia-smi not found on PATH. The run is reported without it.") {
		t.Fatal("the page does not say why telemetry is unavailable")
	}
	r.GPUTelemetry = nil
	if strings.Contains(renderHTML(t, r), "GPU telemetry") {
		t.Fatal("a run without a sampler shows a GPU section")
	}
}

func TestTextReportShowsGPUTelemetry(t *testing.T) {
	r := smallHTMLReport(t)
	r.GPUTelemetry = gpuTelemetry()
	var b strings.Builder
	if err := render.Text(&b, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"source nvidia-smi every 500 ms; energy 325.0 J (integrated power)\n",
		"joules per qualified request 162.500 (2 qualified); joules per output token 23.2143 (14 tokens)\n",
		"; power 200.0/300.0 W;",
		"; memory used n/a/n/a MiB;",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, b.String())
		}
	}
}
