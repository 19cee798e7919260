package suites

import (
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/livemetrics"
	"github.com/servebench/servebench/servebench/llmdreport"
	"github.com/servebench/servebench/servebench/openai"
)

// outputs reads the fields that choose extra outputs of every load point:
// benchmark_report (json, yaml or none; default json), metrics_listen,
// and the per-backend breakdown's backend_header and backend_metrics.
func (d *decoder) outputs(m *mapping, c *Contract) {
	if h := d.str(m, "backend_header"); h != "" {
		if err := openai.ValidateHeader(h, ""); err != nil {
			d.errorf(m.get("backend_header"), "backend_header", "%v", err)
		}
		c.BackendHeader = h
	}
	c.BackendMetrics = d.strings(m, "backend_metrics")
	if addr := d.str(m, "metrics_listen"); addr != "" {
		if _, err := livemetrics.LoopbackAddr(addr); err != nil {
			d.errorf(m.get("metrics_listen"), "metrics_listen", "%v", err)
		}
		c.MetricsListen = addr
	}
	c.BenchmarkReport = string(llmdreport.JSON)
	v := d.str(m, "benchmark_report")
	if v == "" {
		return
	}
	if _, err := llmdreport.ParseFormat(v); err != nil && v != "none" {
		d.errorf(m.get("benchmark_report"), "benchmark_report", "%v, or none", err)
		return
	}
	c.BenchmarkReport = v
}

// artifactWriters are the extra writers of every load point's run.
func (c *Contract) artifactWriters() []servebench.ArtifactWriter {
	if c.BenchmarkReport == "" || c.BenchmarkReport == "none" {
		return nil
	}
	return []servebench.ArtifactWriter{llmdreport.Writer{Format: llmdreport.Format(c.BenchmarkReport)}}
}
