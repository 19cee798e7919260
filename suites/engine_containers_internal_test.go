package suites

import (
	"context"
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
)

var _ = Describe("a container engine's starter", func() {
	It("reports an engine that cannot run here as unavailable, and otherwise passes GPUs, args and env on", func(ctx SpecContext) {
		var got []testcontainers.ContainerCustomizer
		called := false
		start := containerStarter(func(_ context.Context, _ EngineSpec, opts []testcontainers.ContainerCustomizer) (containers.Engine, error) {
			called, got = true, opts
			return nil, errors.New("stop here")
		})
		_, err := start(ctx, EngineSpec{Kind: "vllm", Image: "img", Model: "m", GPUs: 2, Args: []string{"--x"}, Env: map[string]string{"A": "1"}})
		switch {
		case containers.DockerSkipReason(ctx) != "":
			Expect(err).To(MatchError(ErrEngineUnavailable))
			Expect(err.Error()).To(ContainSubstring("container spec needs a Docker engine"))
			Expect(called).To(BeFalse())
		case containers.GPUSkipReason(ctx) != "":
			Expect(err).To(MatchError(ErrEngineUnavailable))
			Expect(err.Error()).To(ContainSubstring("GPU container spec needs Docker with the NVIDIA runtime"))
			Expect(called).To(BeFalse())
		default:
			Expect(err).To(MatchError("stop here"))
			Expect(got).To(HaveLen(3), "GPU device IDs, extra args, env")
		}
	})
})
