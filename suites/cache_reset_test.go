package suites_test

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/suites"
)

// vllmContract is minimal's contract with a vLLM engine instead.
var vllmContract = strings.Replace(minimal, "  kind: simengine\n", "  kind: vllm\n  image: vllm/vllm-openai:v0.11.0\n  model: Qwen/Qwen3-0.6B\n", 1)

var _ = Describe("cache: reset", func() {
	It("starts a vLLM engine with VLLM_SERVER_DEV_MODE=1 and leaves it alone otherwise", func() {
		c, err := suites.Parse(inline, []byte(vllmContract+"cache: reset\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.CacheReset).To(BeTrue())
		Expect(c.Engine.Env).To(HaveKeyWithValue("VLLM_SERVER_DEV_MODE", "1"))
		c, err = suites.Parse(inline, []byte(vllmContract+"cache: uncontrolled\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.CacheReset).To(BeFalse())
		Expect(c.Engine.Env).NotTo(HaveKey("VLLM_SERVER_DEV_MODE"))
	})

	DescribeTable("names the line and field of a bad value",
		func(contract, want string) {
			_, err := suites.Parse(inline, []byte(contract))
			Expect(err).To(HaveOccurred())
			Expect(err.Error()).To(ContainSubstring(want))
		},
		Entry("an unknown state", minimal+"cache: cold\n", `testdata/inline.yaml:10:8: cache: want reset or uncontrolled, got "cold"`),
		Entry("dev mode turned off", strings.Replace(vllmContract, "  model: Qwen/Qwen3-0.6B\n", "  model: Qwen/Qwen3-0.6B\n  env: {VLLM_SERVER_DEV_MODE: \"0\"}\n", 1)+"cache: reset\n",
			`cache: reset needs VLLM_SERVER_DEV_MODE=1 in a vLLM engine's environment, but engine.env sets it to "0"`),
	)

	It("empties the simulated engine's prefix cache before the load point", func(ctx SpecContext) {
		cfg := simengine.DefaultConfig()
		cfg.TimeScale, cfg.PrefixCaching = 0.1, true
		engine, err := simengine.Start(ctx, cfg)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(engine.Close)
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "workload.jsonl"), []byte(`{"id":"q","prompt":"one two three","max_tokens":2,"ignore_eos":true}`+"\n"), 0o644)).To(Succeed())
		contract := `name: cache-reset
base_url: ` + engine.BaseURL() + `
model: ` + cfg.Model + `
endpoint: completions
workload:
  file: workload.jsonl
arrival:
  process: constant
  rate: 20
count: 2
cache: reset
schedule_lag_tolerance: 1s
objectives:
  valid_load: false
artifacts: ` + dir + `
`
		c, err := suites.Parse(filepath.Join(dir, "contract.yaml"), []byte(contract))
		Expect(err).NotTo(HaveOccurred())
		res, err := c.RunPoint(ctx, c.Points()[0], suites.Target{BaseURL: engine.BaseURL(), Model: cfg.Model}, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Report.CacheState).To(Equal(report.CacheStateReset))
		Expect(engine.Stats().PrefixCacheResets).To(Equal(uint64(1)))
	})
})
