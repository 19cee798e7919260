package kube_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/simengine"
	"github.com/servebench/servebench/kube"
	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"
)

// The image builds from scratch without a registry, its entrypoint is the
// servebench command, and it carries the CA bundle where Go looks for it.
func TestTheServebenchImageRunsTheCommandAndCarriesACABundle(t *testing.T) {
	// The deadline covers a cold static build of the command: on a busy
	// 2-core machine that alone took most of 5 minutes.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	containers.SkipIfNoDocker(ctx, t)
	ca, err := os.ReadFile("/etc/ssl/certs/ca-certificates.crt")
	if err != nil {
		t.Skipf("no CA bundle on this host to put in the image: %v", err)
	}
	bin, err := simengine.BuildBinary(ctx, "github.com/servebench/servebench/cmd/servebench", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	binary, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	archive, tag, err := kube.ImageContext(binary, ca)
	if err != nil {
		t.Fatal(err)
	}
	c, err := testcontainers.GenericContainer(ctx, testcontainers.GenericContainerRequest{
		ContainerRequest: testcontainers.ContainerRequest{
			FromDockerfile: testcontainers.FromDockerfile{
				ContextArchive: bytes.NewReader(archive), Dockerfile: "Dockerfile",
				Repo: "servebench-test", Tag: tag,
			},
			Cmd:        []string{"help"},
			WaitingFor: wait.ForExit().WithExitTimeout(time.Minute),
		},
		Started: true,
	})
	testcontainers.CleanupContainer(t, c)
	if err != nil {
		t.Fatal(err)
	}
	state, err := c.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	logs, err := c.Logs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(logs)
	if state.ExitCode != 0 || !strings.Contains(string(out), "merge") || !strings.Contains(string(out), "k8s") {
		t.Errorf("servebench help in the image: exit %d, output:\n%s\nwant exit 0 listing merge and k8s", state.ExitCode, out)
	}
	r, err := c.CopyFileFromContainer(ctx, kube.ImageCABundle)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(r)
	if !bytes.Equal(got, ca) {
		t.Errorf("the image's %s has %d bytes; want the host bundle's %d", kube.ImageCABundle, len(got), len(ca))
	}
}
