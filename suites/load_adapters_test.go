package suites_test

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/suites"
)

var _ = Describe("the load_adapters field", func() {
	It("reads the adapters to load in the order written, and the load deadline", func() {
		c, err := suites.Parse(inline, []byte(minimal+"load_adapters: {sql: /models/sql, chat: /models/chat}\nadapter_load_timeout: 2m\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.LoRA.Load).To(Equal([]openai.AdapterLoad{{Name: "sql", Path: "/models/sql"}, {Name: "chat", Path: "/models/chat"}}))
		Expect(c.LoRA.LoadTimeout).To(Equal(2 * time.Minute))
	})

	DescribeTable("names the file, line and field of a bad entry",
		func(line, want string) {
			_, err := suites.Parse(inline, []byte(minimal+line+"\n"))
			Expect(err).To(HaveOccurred())
			Expect(strings.Split(err.Error(), "\n")).To(Equal([]string{want}))
		},
		Entry("a path that is a number", "load_adapters: {sql: 3}",
			`testdata/inline.yaml:10:22: load_adapters.sql: want the path the engine loads the adapter from, got "3"`),
		Entry("the base model", "load_adapters:\n  base: /m",
			`testdata/inline.yaml:11:3: load_adapters.base: "base" is the base model, which needs no loading`),
		Entry("an empty path", "load_adapters: {sql: \"\"}",
			`testdata/inline.yaml:10:22: load_adapters.sql: want the path the engine loads the adapter from, got ""`),
		Entry("not a mapping", "load_adapters: [sql]",
			`testdata/inline.yaml:10:16: load_adapters: want a mapping of adapter names to the paths the engine loads them from, got a list`),
		Entry("a deadline without loads", "adapter_load_timeout: 1m",
			`testdata/inline.yaml:10:23: adapter_load_timeout: bounds the loads of load_adapters, and there are none`),
	)

	It("loads the adapters once before the first of two load points, and both reports carry the loads", func(ctx SpecContext) {
		cfg := simengine.DefaultConfig()
		cfg.TimeScale, cfg.AdapterLoadCost = 0.1, 200*time.Millisecond
		engine, err := simengine.Start(ctx, cfg)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(engine.Close)
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "workload.jsonl"), []byte(`{"prompt":"say a","max_tokens":2}`+"\n"), 0o644)).To(Succeed())
		contract := `name: adapter-loads
base_url: ` + engine.BaseURL() + `
model: ` + cfg.Model + `
endpoint: completions
workload:
  file: workload.jsonl
arrival:
  process: constant
  rates: [20, 40]
count: 4
adapters: {sql: 1, chat: 1}
load_adapters: {sql: /models/sql, chat: /models/chat}
schedule_lag_tolerance: 1s
objectives:
  valid_load: false
artifacts: ` + dir + `
`
		c, err := suites.Parse(filepath.Join(dir, "contract.yaml"), []byte(contract))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Points()).To(HaveLen(2))
		for _, p := range c.Points() {
			res, err := c.RunPoint(ctx, p, suites.Target{BaseURL: engine.BaseURL(), Model: cfg.Model}, nil)
			Expect(err).NotTo(HaveOccurred())
			loads := res.Report.AdapterLoads
			Expect(loads).To(HaveLen(2))
			Expect(loads[0].Adapter).To(Equal("sql"))
			Expect(loads[1].Adapter).To(Equal("chat"))
			// 200 ms of model time at TimeScale 0.1: at least 20 ms each.
			Expect(loads[0].LoadMS).To(BeNumerically(">=", 20))
			Expect(loads[1].LoadMS).To(BeNumerically(">=", 20))
			Expect(res.Report.Breakdown["adapter"].Values["chat"].LoadMS).To(HaveValue(Equal(loads[1].LoadMS)))
		}
		Expect(engine.Stats().RuntimeAdapterLoads).To(Equal(uint64(2)))
	})
})
