package suites

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/telemetry"
)

// useDCGM points the contracts' GPU telemetry at url for one spec.
func useDCGM(url string) {
	saved := gpuTelemetryOptions
	gpuTelemetryOptions = func() telemetry.Options { return telemetry.Options{DCGMURL: url} }
	DeferCleanup(func() { gpuTelemetryOptions = saved })
}

// oneGPUExporter serves one GPU in DCGM exporter format, its energy
// counter rising by 2,000 mJ per scrape and its temperature field holding
// the scrape's number.
func oneGPUExporter() string {
	var scrapes atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		k := scrapes.Add(1)
		fmt.Fprintf(w, "# TYPE DCGM_FI_DEV_POWER_USAGE gauge\nDCGM_FI_DEV_POWER_USAGE{gpu=\"0\",modelName=\"NVIDIA H200\"} 200\n"+
			"# TYPE DCGM_FI_DEV_GPU_TEMP gauge\nDCGM_FI_DEV_GPU_TEMP{gpu=\"0\",modelName=\"NVIDIA H200\"} %d\n"+
			"# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter\nDCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu=\"0\",modelName=\"NVIDIA H200\"} %d\n", k, 2000*k)
	}))
	DeferCleanup(srv.Close)
	return srv.URL + "/metrics"
}

var _ = Describe("GPUs for an engine run as a local process", func() {
	It("are found through a telemetry source, not Docker", func(ctx SpecContext) {
		useDCGM(oneGPUExporter())
		Expect(CheckProcessGPUs(ctx, EngineSpec{Kind: "ollama", GPUs: 1})).To(Succeed())
	})

	It("are reported unavailable with the reason when no source lists one", func(ctx SpecContext) {
		dead := httptest.NewServer(http.NotFoundHandler())
		DeferCleanup(dead.Close)
		useDCGM(dead.URL)
		err := CheckProcessGPUs(ctx, EngineSpec{Kind: "ollama", GPUs: -1})
		Expect(err).To(MatchError(ErrEngineUnavailable))
		Expect(err.Error()).To(ContainSubstring("GPU process spec needs a GPU that NVML, nvidia-smi or a DCGM exporter can see: dcgm: GET " + dead.URL + ": HTTP 404"))
		Expect(CheckProcessGPUs(ctx, EngineSpec{Kind: "ollama"})).To(Succeed(), "no GPUs asked for, nothing to check")
	})

	It("decide whether a process engine starts", func(ctx SpecContext) {
		started := 0
		start := processStarter(func(context.Context, EngineSpec, []testcontainers.ContainerCustomizer) (containers.Engine, error) {
			started++
			return nil, errors.New("stop here")
		})
		spec := EngineSpec{Kind: "vllm", Model: "m", GPUs: 1, Process: &EngineProcess{}}
		dead := httptest.NewServer(http.NotFoundHandler())
		DeferCleanup(dead.Close)
		useDCGM(dead.URL)
		_, err := start(ctx, spec)
		Expect(err).To(MatchError(ErrEngineUnavailable))
		Expect(started).To(Equal(0))
		useDCGM(oneGPUExporter())
		_, err = start(ctx, spec)
		Expect(err).To(MatchError("stop here"))
		Expect(started).To(Equal(1))
	})
})

var _ = Describe("a contract with an energy objective", func() {
	It("samples the GPUs over each load point and judges joules per token", func(ctx SpecContext) {
		useDCGM(oneGPUExporter())
		cfg := simengine.DefaultConfig()
		cfg.TimeScale = 0.1
		srv, err := simengine.Start(context.Background(), cfg)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(srv.Close)
		c, err := Parse("testdata/inline.yaml", []byte(`name: energy
base_url: `+srv.BaseURL()+`
model: simengine-tiny
workload:
  file: workload.jsonl
arrival:
  process: constant
  rate: 20
count: 6
schedule_lag_tolerance: 2s
artifacts: `+filepath.Join(GinkgoT().TempDir(), "runs")+`
objectives:
  joules_per_output_token: 1000000
`))
		Expect(err).NotTo(HaveOccurred())
		res, err := c.RunPoint(ctx, c.Points()[0], Target{BaseURL: srv.BaseURL(), Model: "simengine-tiny"}, nil)
		Expect(err).NotTo(HaveOccurred())
		g := res.Report.GPUTelemetry
		Expect(g).NotTo(BeNil())
		Expect(g.Source).To(Equal("dcgm"))
		tl := g.GPUs[0].Timeline
		Expect(*g.EnergyJ).To(Equal(2 * (*tl[len(tl)-1].TemperatureC - *tl[0].TemperatureC)))
		Expect(res).To(matchers.HaveEnergyPerOutputTokenBelow(1e6))
	})
})
