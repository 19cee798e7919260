package ollama_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/ollama"
	"github.com/servebench/servebench/fixtures/gguf"
)

// The end-to-end suite runs a real Ollama, built from the Go module proxy by
// .ci/build-ollama.sh, against tiny models this package's tests generate. It
// pins the ways Ollama's OpenAI-compatible streams differ from the textbook
// (see the package documentation) to the raw bytes and to the client's
// behaviour.
//
// Without a binary every spec skips with the command that builds one;
// SERVEBENCH_REQUIRE_OLLAMA=1 (set in CI) turns the skip into a failure.

// EnvRequireOllama turns a missing Ollama binary into a failure.
const EnvRequireOllama = "SERVEBENCH_REQUIRE_OLLAMA"

// Sizes of the suite's requests. The never-EOS model runs every request to
// max_tokens; num_predict caps requests that send none.
const (
	numPredict = 48
	// earlyEOSBias makes the early model stop most requests within a few
	// tokens (gguf.Options.EOSBias).
	earlyEOSBias = 6
)

var (
	// skipReason is why the specs cannot run here; empty when they can.
	skipReason string
	// never serves the model "tiny" that never samples EOS.
	never *ollama.Local
	// early serves the model "early" that samples EOS often.
	early *ollama.Local
)

func TestOllamaEndToEnd(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Ollama end to end")
}

var _ = BeforeSuite(func(ctx SpecContext) {
	// Before anything touches testcontainers: no reaper image to pull, and
	// published ports dialled on 127.0.0.1.
	Expect(containers.UseAirGappedDefaults()).To(Succeed())
	binary, err := ollama.FindBinary()
	if err != nil {
		skipReason = "Ollama end-to-end specs need an ollama binary: " + err.Error() +
			" (set " + EnvRequireOllama + "=1 to fail instead of skipping)"
		return
	}
	dir := GinkgoT().TempDir()
	start := time.Now()
	neverPath := filepath.Join(dir, "never.gguf")
	_, err = gguf.WriteFile(neverPath, gguf.Options{Seed: 1, EOS: gguf.EOSNever})
	Expect(err).NotTo(HaveOccurred())
	earlyPath := filepath.Join(dir, "early.gguf")
	_, err = gguf.WriteFile(earlyPath, gguf.Options{Seed: 2, EOS: gguf.EOSEarly, EOSBias: earlyEOSBias})
	Expect(err).NotTo(HaveOccurred())

	never, err = ollama.RunLocal(ctx, binary,
		ollama.WithModelFile(neverPath), ollama.WithModelName("tiny"), ollama.WithNumPredict(numPredict),
		containers.WithLogBuffer(4<<20), containers.WithStartupTimeout(2*time.Minute))
	DeferCleanup(func() { never.Shutdown(context.Background()) })
	Expect(err).NotTo(HaveOccurred())
	early, err = ollama.RunLocal(ctx, binary,
		ollama.WithModelFile(earlyPath), ollama.WithModelName("early"), ollama.WithNumPredict(numPredict),
		containers.WithStartupTimeout(2*time.Minute))
	DeferCleanup(func() { early.Shutdown(context.Background()) })
	Expect(err).NotTo(HaveOccurred())
	GinkgoWriter.Printf("ollama %s from %s: models written and both servers ready in %s (cold starts %s, %s)\n",
		never.Identity().Version, binary, time.Since(start).Round(time.Millisecond),
		never.ColdStart().Round(time.Millisecond), early.ColdStart().Round(time.Millisecond))
}, NodeTimeout(5*time.Minute))

// Every spec needs the binary.
var _ = BeforeEach(func() {
	if skipReason == "" {
		return
	}
	if os.Getenv(EnvRequireOllama) == "1" {
		Fail(EnvRequireOllama + "=1 but " + skipReason)
	}
	Skip(skipReason)
})

var _ = ReportAfterEach(func(r SpecReport) {
	if r.Failed() && never != nil {
		AddReportEntry("ollama log tail", lastBytes(never.LogTail(), 8<<10))
	}
})

func lastBytes(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
