package simengine_test

import (
	"context"
	"os"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/simengine"
)

func TestSimengineContainer(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Simulated engine container suite")
}

// binary is the simulated engine, built once for the suite; empty when no
// Docker engine answers (the container specs then skip or fail).
var binary string

var _ = BeforeSuite(func(ctx SpecContext) {
	// testcontainers reads its configuration once per process: no Ryuk
	// (its image cannot be pulled) and published ports dialled on
	// 127.0.0.1, before anything touches testcontainers.
	Expect(containers.UseAirGappedDefaults()).To(Succeed())
	probe, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if containers.DockerSkipReason(probe) != "" {
		return
	}
	dir, err := os.MkdirTemp("", "simengine-suite-")
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(os.RemoveAll, dir)
	binary, err = simengine.BuildBinary(ctx, simengine.Package, dir)
	Expect(err).NotTo(HaveOccurred())
}, NodeTimeout(8*time.Minute))

// requireDocker skips the current spec when no Docker engine answers, or
// fails it when SERVEBENCH_REQUIRE_DOCKER=1.
func requireDocker(ctx context.Context) {
	containers.SkipIfNoDocker(ctx, GinkgoT())
	Expect(binary).NotTo(BeEmpty(), "the engine binary was not built")
}
