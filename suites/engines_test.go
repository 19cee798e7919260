package suites_test

import (
	"context"
	"io"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

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
		_, err := suites.StartEngine(ctx, suites.EngineSpec{Kind: "ollama", Image: "ollama/ollama", Model: "m"})
		Expect(err).To(MatchError(`no engine starter is registered for kind "ollama" (registered: llamacpp, sglang, simengine, tgi, vllm); register one with suites.RegisterEngine`))
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
