package suites_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/containers/simengine"
	"github.com/servebench/servebench/suites"
)

var _ = Describe("StartEngine", func() {
	It("starts the simulated engine in-process with the contract's model and flags", func(ctx SpecContext) {
		eng, err := suites.StartEngine(ctx, suites.EngineSpec{Kind: "simengine", Model: "tiny-test", Args: []string{"--time-scale=0.1"}})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(eng.Shutdown)

		Expect(eng.Kind()).To(Equal("simengine"))
		Expect(eng.Model()).To(Equal("tiny-test"))
		Expect(eng.BaseURL()).To(HavePrefix("http://127.0.0.1:"))
		Expect(eng.Command()).To(Equal([]string{"simengine", "--model=tiny-test", "--time-scale=0.1"}))
		Expect(eng.Identity().Args).To(Equal([]string{"--time-scale=0.1"}))

		resp, err := http.Get(eng.BaseURL() + "/v1/models")
		Expect(err).NotTo(HaveOccurred())
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
		Expect(string(body)).To(ContainSubstring(`"tiny-test"`))

		Expect(eng.Shutdown(ctx)).To(Succeed())
		_, err = http.Get(eng.BaseURL() + "/v1/models")
		Expect(err).To(HaveOccurred(), "the engine stopped listening")
	})

	It("names the registered kinds when none fits", func(ctx SpecContext) {
		_, err := suites.StartEngine(ctx, suites.EngineSpec{Kind: "tensorrt", Model: "m"})
		Expect(err).To(MatchError(`no engine starter is registered for kind "tensorrt" (registered: llamacpp, ollama, sglang, simengine, tgi, vllm); register one with suites.RegisterEngine`))
	})

	It("starts a process engine from the module's command line and the contract's process section", func(ctx SpecContext) {
		dir := GinkgoT().TempDir()
		bin, err := simengine.BuildBinary(ctx, "github.com/servebench/servebench/cmd/enginestandin", dir)
		Expect(err).NotTo(HaveOccurred())
		vllmBin := filepath.Join(dir, "vllm")
		Expect(os.Symlink(bin, vllmBin)).To(Succeed())

		eng, err := suites.StartEngine(ctx, suites.EngineSpec{
			Kind: "vllm", Model: "Qwen/Qwen3-0.6B", Args: []string{"--max-num-seqs", "8"},
			Process: &suites.EngineProcess{Binary: vllmBin, Args: []string{"--enforce-eager"},
				Env: map[string]string{"STANDIN_LOAD_DURATION": "10ms"}},
		})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(eng.Shutdown)
		Expect(eng.Kind()).To(Equal("vllm"))
		Expect(eng.Model()).To(Equal("Qwen/Qwen3-0.6B"))
		Expect(eng.BaseURL()).To(HavePrefix("http://127.0.0.1:"))
		port := strings.TrimPrefix(eng.BaseURL(), "http://127.0.0.1:")
		Expect(eng.Command()).To(Equal([]string{vllmBin, "serve", "--model", "Qwen/Qwen3-0.6B",
			"--max-num-seqs", "8", "--enforce-eager", "--host", "127.0.0.1", "--port", port}))
		Expect(eng.Identity().Version).To(Equal("0.8.5"), "read from the engine's /version")
		Expect(eng.Shutdown(ctx)).To(Succeed())
	})

	It("reports a process engine whose binary is missing as unavailable", func(ctx SpecContext) {
		for _, kind := range []string{"vllm", "ollama"} {
			_, err := suites.StartEngine(ctx, suites.EngineSpec{Kind: kind, Model: "m.gguf",
				Process: &suites.EngineProcess{Binary: "/nonexistent/" + kind}})
			Expect(err).To(MatchError(suites.ErrEngineUnavailable), kind)
		}
	})

	It("uses a starter registered by the user and wraps its errors", func(ctx SpecContext) {
		suites.RegisterEngine("test-broken", func(context.Context, suites.EngineSpec) (suites.Engine, error) {
			return nil, io.ErrUnexpectedEOF
		})
		_, err := suites.StartEngine(ctx, suites.EngineSpec{Kind: "test-broken"})
		Expect(err).To(MatchError(io.ErrUnexpectedEOF))
		Expect(err).To(MatchError("start test-broken engine: unexpected EOF"))
	})
})
