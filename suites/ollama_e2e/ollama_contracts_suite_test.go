// Package ollama_e2e_test runs YAML SLO contracts against a real Ollama
// serving a tiny generated model: one contract the engine meets, run as
// Ginkgo specs through suites.Register, and one it cannot meet, whose
// attainment objective is asserted to fail with a message that says why.
//
// The Ollama binary comes from SERVEBENCH_OLLAMA_BIN, the cache that
// `bash .ci/build-ollama.sh` fills, or PATH. Without one the specs skip,
// naming that command; SERVEBENCH_REQUIRE_OLLAMA=1 turns the skip into a
// failure.
package ollama_e2e_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/ollama"
	"github.com/servebench/servebench/fixtures/gguf"
	"github.com/servebench/servebench/suites"
)

// EnvRequireOllama turns a missing Ollama binary into a failure.
const EnvRequireOllama = "SERVEBENCH_REQUIRE_OLLAMA"

var (
	// modelDir holds the generated models; a contract's engine.model names
	// a file in it.
	modelDir string
	// binary is the Ollama binary, binaryErr why there is none.
	binary    string
	binaryErr error
	// attainable and unattainable are the contracts in contracts/;
	// embeddings and responses run the other APIs Ollama serves.
	attainable, unattainable, embeddings, responses *suites.Contract
)

func TestOllamaContracts(t *testing.T) {
	RegisterFailHandler(Fail)
	if os.Getenv(suites.EnvArtifacts) == "" {
		t.Setenv(suites.EnvArtifacts, t.TempDir())
	}
	modelDir = t.TempDir()
	if _, err := gguf.WriteFile(filepath.Join(modelDir, "tiny-never.gguf"), gguf.Options{Seed: 11, EOS: gguf.EOSNever}); err != nil {
		t.Fatal(err)
	}
	binary, binaryErr = ollama.FindBinary()
	suites.RegisterEngine("ollama", startLocalOllama)

	var err error
	if attainable, err = suites.Load("contracts/attainable.yaml"); err != nil {
		t.Fatal(err)
	}
	if unattainable, err = suites.Load("contracts/unattainable.yaml"); err != nil {
		t.Fatal(err)
	}
	if embeddings, err = suites.Load("contracts/embeddings.yaml"); err != nil {
		t.Fatal(err)
	}
	if responses, err = suites.Load("contracts/responses.yaml"); err != nil {
		t.Fatal(err)
	}
	Describe("Ollama SLO contracts", func() {
		suites.Register(attainable)
		suites.Register(embeddings)
		suites.Register(responses)
	})
	RunSpecs(t, "Ollama SLO contracts")
}

// startLocalOllama starts the engine of a contract's engine section as a
// local Ollama process serving the GGUF file engine.model (relative to the
// suite's model directory). A missing binary makes the engine unavailable
// (the contract's specs skip), or an error with SERVEBENCH_REQUIRE_OLLAMA=1.
func startLocalOllama(ctx context.Context, spec suites.EngineSpec) (containers.Engine, error) {
	if binaryErr != nil {
		if os.Getenv(EnvRequireOllama) == "1" {
			return nil, fmt.Errorf("%s=1 but %w", EnvRequireOllama, binaryErr)
		}
		return nil, fmt.Errorf("%w: %v (set %s=1 to fail instead of skipping)", suites.ErrEngineUnavailable, binaryErr, EnvRequireOllama)
	}
	model := spec.Model
	if !filepath.IsAbs(model) {
		model = filepath.Join(modelDir, model)
	}
	opts := []testcontainers.ContainerCustomizer{ollama.WithModelFile(model)}
	if len(spec.Env) > 0 {
		opts = append(opts, containers.WithEnv(spec.Env))
	}
	if len(spec.Args) > 0 {
		opts = append(opts, containers.WithExtraArgs(spec.Args...))
	}
	if deadline, ok := ctx.Deadline(); ok {
		opts = append(opts, containers.WithStartupTimeout(time.Until(deadline)))
	}
	l, err := ollama.RunLocal(ctx, binary, opts...)
	if l == nil {
		return nil, err
	}
	return l, err
}

var _ = Describe("An Ollama contract it cannot meet", Ordered, Label("ollama"), func() {
	var target suites.Target

	BeforeAll(func(ctx SpecContext) {
		eng, err := startLocalOllama(ctx, *unattainable.Engine)
		if errors.Is(err, suites.ErrEngineUnavailable) {
			Skip(err.Error())
		}
		DeferCleanup(func(ctx SpecContext) {
			if eng != nil {
				Expect(eng.Shutdown(ctx)).To(Succeed())
			}
		}, NodeTimeout(time.Minute))
		Expect(err).NotTo(HaveOccurred())
		target = suites.Target{BaseURL: eng.BaseURL(), Model: eng.Model(), Engine: containers.EngineInfo(eng)}
	}, NodeTimeout(3*time.Minute))

	It("fails its attainment objective, and only that one, saying how many requests missed which bound", func(ctx SpecContext) {
		points := unattainable.Points()
		Expect(points).To(HaveLen(1))
		start := time.Now()
		res, err := unattainable.RunPoint(ctx, points[0], target, nil)
		Expect(err).NotTo(HaveOccurred())
		GinkgoWriter.Printf("load point %s ran in %s, kept in %s\n", points[0].Name, time.Since(start).Round(time.Millisecond), res.Dir)
		Expect(res.Report.Offered).To(Equal(16))

		var failed []string
		for _, o := range unattainable.PointObjectives(points[0]) {
			ok, err := o.Matcher.Match(res)
			Expect(err).NotTo(HaveOccurred(), o.Name)
			if ok {
				continue
			}
			failed = append(failed, o.Field)
			msg := o.Matcher.FailureMessage(res)
			Expect(o.Field).To(Equal("objectives.attainment"), "unexpected failure: %s", msg)
			Expect(msg).To(HavePrefix("Expected attainment 0.000 (0 of 16 offered) to be at least 0.950"))
			Expect(msg).To(ContainSubstring("unqualified requests by failed criterion (a request can fail several): ttft 16"))
			Expect(msg).To(ContainSubstring("terminal statuses: success 16"))
			Expect(msg).To(ContainSubstring("SLO: TTFT <= 0.1 ms (from sent)"))
		}
		Expect(failed).To(Equal([]string{"objectives.attainment"}))
	}, NodeTimeout(2*time.Minute))
})
