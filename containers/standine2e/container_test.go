package standine2e_test

import (
	"context"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/client"
	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
)

// Every engine module starts its container through testcontainers from the
// stand-in image (one build, one target per engine): the module's wait
// strategy, port mapping, logs, identity and stop, as a user runs it.
func TestEngineModulesAsContainers(t *testing.T) {
	probe, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	containers.SkipIfNoDocker(probe, t)
	cancel()
	for _, c := range engineCases() {
		t.Run(c.kind, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()
			img, build := image(c.kind)
			opts := append(append([]testcontainers.ContainerCustomizer(nil), c.opts...),
				containers.WithAPIKey(apiKey), build)
			eng, ctr, err := c.container(ctx, img, opts...)
			testcontainers.CleanupContainer(t, ctr)
			if err != nil {
				t.Fatal(err)
			}
			u, err := url.Parse(eng.BaseURL())
			if err != nil {
				t.Fatal(err)
			}
			mapped, err := ctr.MappedPort(ctx, portOf(t, eng))
			if err != nil || u.Hostname() != "127.0.0.1" || u.Port() != mapped.Port() {
				t.Errorf("base URL %s, mapped port %v (%v): want 127.0.0.1 and the mapped port", eng.BaseURL(), mapped, err)
			}
			if id := eng.Identity(); !strings.HasPrefix(id.ImageID, "sha256:") || id.Image != img {
				t.Errorf("identity image %q id %q, want %q and a sha256 ID", id.Image, id.ImageID, img)
			}
			checkEngine(t, ctx, c, eng)

			id := ctr.GetContainerID()
			if err := eng.Shutdown(ctx); err != nil {
				t.Fatal(err)
			}
			if err := eng.Shutdown(ctx); err != nil {
				t.Errorf("a second Shutdown: %v", err)
			}
			cli, err := testcontainers.NewDockerClientWithOpts(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer cli.Close()
			if _, err := cli.ContainerInspect(ctx, id, client.ContainerInspectOptions{}); !cerrdefs.IsNotFound(err) {
				t.Errorf("container %s after Shutdown: inspect error %v, want not found", id, err)
			}
		})
	}
}

// portOf returns the engine's container port ("8000/tcp") from its
// command line's --port flag.
func portOf(t *testing.T, eng containers.Engine) string {
	t.Helper()
	cmd := eng.Command()
	for i, a := range cmd {
		if a == "--port" && i+1 < len(cmd) {
			if _, _, err := net.SplitHostPort("h:" + cmd[i+1]); err == nil {
				return cmd[i+1] + "/tcp"
			}
		}
	}
	t.Fatalf("no --port in %q", cmd)
	return ""
}
