package suites_test

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"

	"github.com/servebench/servebench/servebench/record"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/llmdreport"
	"github.com/servebench/servebench/suites"
)

var _ = Describe("RunPoint against a base URL", func() {
	It("refuses a model the engine does not serve before sending or writing anything", func(ctx SpecContext) {
		cfg := simengine.DefaultConfig()
		cfg.TimeScale = 0.1
		engine, err := simengine.Start(ctx, cfg)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(engine.Close)
		artifacts := GinkgoT().TempDir()
		c := mustParse(`name: wrong-model
base_url: ` + engine.BaseURL() + `
model: Qwen/Qwen3-0.6B
workload:
  file: workload.jsonl
arrival:
  process: constant
  rate: 5
count: 4
artifacts: ` + artifacts + `
`)
		_, err = c.RunPoint(ctx, c.Points()[0], suites.Target{BaseURL: engine.BaseURL(), Model: "Qwen/Qwen3-0.6B"}, nil)
		Expect(err).To(MatchError(`contract wrong-model, constant 4 requests at 5 req/s: model "Qwen/Qwen3-0.6B" is not served here; served: simengine-tiny`))
		Expect(engine.Stats().Submitted).To(BeZero())
		entries, err := os.ReadDir(artifacts)
		Expect(err).NotTo(HaveOccurred())
		Expect(entries).To(BeEmpty(), "nothing written under %s", filepath.Clean(artifacts))
	})

	It("runs a contract in bounded memory: the schedule streamed, entries in requests.jsonl, a p99.9 objective answered", func(ctx SpecContext) {
		cfg := simengine.DefaultConfig()
		cfg.TimeScale = 0.1
		engine, err := simengine.Start(ctx, cfg)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(engine.Close)
		c := mustParse(`name: bounded
base_url: ` + engine.BaseURL() + `
model: ` + cfg.Model + `
workload:
  file: workload.jsonl
arrival:
  process: constant
  rate: 20
count: 6
schedule_lag_tolerance: 1s
objectives:
  percentiles: [{metric: ttft, p: 99.9, below: 30s}]
artifacts: ` + GinkgoT().TempDir() + `
`)
		res, err := c.RunPoint(ctx, c.Points()[0], suites.Target{BaseURL: engine.BaseURL(), Model: cfg.Model}, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Schedule.Entries).To(BeNil())
		Expect(res.Report.Offered).To(Equal(6))
		Expect(res.Report.RequestsFile).To(Equal(record.RequestsFile))
		Expect(filepath.Join(res.Dir, record.RequestsFile)).To(BeAnExistingFile())
		Expect(res).To(matchers.HaveNoLostRequests())
		// Six TTFTs: p99.9 by nearest rank is the largest, kept for the
		// objective although the report holds no raw samples.
		p999, n, _, err := res.Report.Percentile(record.MetricTTFT, 99.9)
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(Equal(6))
		Expect(p999).To(Equal(*res.Report.Percentiles[record.MetricTTFT].Max))
		Expect(res.Report.Samples).To(BeEmpty())
		// The run directory's manifest lists what the contract wrote,
		// requests.jsonl included, with sizes.
		b, err := os.ReadFile(filepath.Join(res.Dir, "manifest.json"))
		Expect(err).NotTo(HaveOccurred())
		var m struct {
			Command string `json:"command"`
			Entries []struct {
				Path string `json:"path"`
				Size int64  `json:"size"`
			} `json:"entries"`
		}
		Expect(json.Unmarshal(b, &m)).To(Succeed())
		Expect(m.Command).To(Equal("contract"))
		sizes := map[string]int64{}
		for _, e := range m.Entries {
			sizes[e.Path] = e.Size
		}
		for _, name := range []string{record.RequestsFile, record.ReportFile, record.ScheduleFile, record.OutcomesFile, suites.ContractFile} {
			fi, err := os.Stat(filepath.Join(res.Dir, name))
			Expect(err).NotTo(HaveOccurred())
			Expect(sizes).To(HaveKeyWithValue(name, fi.Size()), name)
		}
		Expect(filepath.Join(res.Dir, llmdreport.FileJSON)).To(BeAnExistingFile(), "a contract writes the llm-d Benchmark Report by default")
	})
})

// scrapeOnFinish is an Observer that scrapes the live metrics when the run
// finishes, while the load point's server still runs.
type scrapeOnFinish struct {
	url  string
	body string
	err  error
}

func (s *scrapeOnFinish) Started(int)           {}
func (s *scrapeOnFinish) Ended(*record.Outcome) {}
func (s *scrapeOnFinish) Finished() {
	resp, err := http.Get(s.url)
	if err != nil {
		s.err = err
		return
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	s.body, s.err = string(b), err
}

var _ = Describe("metrics_listen", func() {
	It("serves the live metrics while the load point runs and stops with it", func(ctx SpecContext) {
		cfg := simengine.DefaultConfig()
		cfg.TimeScale = 0.1
		engine, err := simengine.Start(ctx, cfg)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(engine.Close)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		Expect(err).NotTo(HaveOccurred())
		addr := ln.Addr().String()
		Expect(ln.Close()).To(Succeed())
		c := mustParse(`name: live
base_url: ` + engine.BaseURL() + `
model: ` + cfg.Model + `
workload:
  file: workload.jsonl
arrival:
  process: constant
  rate: 20
count: 6
metrics_listen: "` + addr + `"
schedule_lag_tolerance: 1s
artifacts: ` + GinkgoT().TempDir() + `
`)
		obs := &scrapeOnFinish{url: "http://" + addr + "/metrics"}
		res, err := c.RunPoint(ctx, c.Points()[0], suites.Target{BaseURL: engine.BaseURL(), Model: cfg.Model}, obs)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Report.Offered).To(Equal(6))
		Expect(obs.err).NotTo(HaveOccurred())
		Expect(obs.body).To(ContainSubstring("servebench_requests_scheduled 6\n"))
		Expect(obs.body).To(ContainSubstring("servebench_load_point_offered_rate_rps 20\n"))
		_, err = http.Get(obs.url)
		Expect(err).To(HaveOccurred(), "the server stops with the load point")
	})
})
