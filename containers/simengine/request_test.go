package simengine

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/openai"

	"github.com/moby/moby/api/types/network"
	"github.com/servebench/servebench/containers"
	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"
)

// fakeBinary writes bytes standing in for the engine binary.
func fakeBinary(t *testing.T) (string, []byte) {
	t.Helper()
	data := []byte("\x7fELF not really an engine")
	path := filepath.Join(t.TempDir(), "simengine")
	if err := os.WriteFile(path, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return path, data
}

// untar reads a build context into name -> (mode, content).
func untar(t *testing.T, r io.Reader) map[string]struct {
	mode int64
	data string
} {
	t.Helper()
	files := map[string]struct {
		mode int64
		data string
	}{}
	tr := tar.NewReader(r)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return files
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		files[hdr.Name] = struct {
			mode int64
			data string
		}{hdr.Mode, string(b)}
	}
}

func TestRequestBuildsFromScratchOnTheHostNetwork(t *testing.T) {
	bin, data := fakeBinary(t)
	p, err := request(WithBinary(bin), WithModel("tiny"), WithMaxNumSeqs(8), WithTimeScale(0.5), WithSeed(7))
	if err != nil {
		t.Fatal(err)
	}
	r := p.Request
	if r.Image != "" || p.Image != "" {
		t.Errorf("image %q/%q: the image is built, not pulled", r.Image, p.Image)
	}
	sum := sha256.Sum256(data)
	if r.Repo != ImageRepo || r.Tag != hex.EncodeToString(sum[:])[:12] || r.Dockerfile != "Dockerfile" || r.KeepImage {
		t.Errorf("build repo %q tag %q dockerfile %q keep %v", r.Repo, r.Tag, r.Dockerfile, r.KeepImage)
	}
	files := untar(t, r.ContextArchive)
	if len(files) != 2 || files["Dockerfile"].data != Dockerfile || files["simengine"].data != string(data) || files["simengine"].mode != 0o755 {
		t.Errorf("build context %+v", files)
	}
	wantArgs := []string{"-model", "tiny", "-max-num-seqs", "8", "-time-scale", "0.5", "-seed", "7"}
	if !reflect.DeepEqual(r.Cmd, wantArgs) {
		t.Errorf("cmd %q, want %q", r.Cmd, wantArgs)
	}
	port := strings.TrimSuffix(p.Port, "/tcp")
	if r.Env[EnvAddr] != "127.0.0.1:"+port {
		t.Errorf("%s = %q, plan port %s", EnvAddr, r.Env[EnvAddr], p.Port)
	}
	hc := p.HostConfig()
	if hc.NetworkMode != "host" || len(hc.PortBindings) != 0 || len(r.ExposedPorts) != 0 {
		t.Errorf("network %q bindings %v exposed %q", hc.NetworkMode, hc.PortBindings, r.ExposedPorts)
	}
	hs := r.WaitingFor.(*wait.HTTPStrategy)
	if hs.Path != "/health" || hs.Port.String() != p.Port || *hs.Timeout() != time.Minute {
		t.Errorf("wait %q on %s for %s", hs.Path, hs.Port, *hs.Timeout())
	}
	if p.Model != "tiny" || p.MetricsPath != "/metrics" || p.VersionPath != "/version" || p.Kind != "simengine" {
		t.Errorf("plan %+v", p)
	}
}

func TestRequestOnTheBridgePublishesOnLoopback(t *testing.T) {
	bin, _ := fakeBinary(t)
	p, err := request(WithBinary(bin), WithBridgeNetwork(), WithKeepImage())
	if err != nil {
		t.Fatal(err)
	}
	if p.Request.Env[EnvAddr] != "0.0.0.0:8000" || !reflect.DeepEqual(p.Request.ExposedPorts, []string{"8000/tcp"}) {
		t.Errorf("env %v exposed %q", p.Request.Env, p.Request.ExposedPorts)
	}
	want := network.PortMap{network.MustParsePort("8000/tcp"): {{HostIP: netip.MustParseAddr("127.0.0.1")}}}
	if hc := p.HostConfig(); !reflect.DeepEqual(hc.PortBindings, want) || hc.NetworkMode != "" {
		t.Errorf("bindings %v network %q", hc.PortBindings, hc.NetworkMode)
	}
	if !p.Request.KeepImage || p.Model != "" || len(p.Request.Cmd) != 0 {
		t.Errorf("keep %v model %q cmd %q", p.Request.KeepImage, p.Model, p.Request.Cmd)
	}
}

func TestRequestErrors(t *testing.T) {
	bin, _ := fakeBinary(t)
	cases := []struct {
		opts []testcontainers.ContainerCustomizer
		want string
	}{
		{nil, "no binary: pass simengine.WithBinary"},
		{[]testcontainers.ContainerCustomizer{WithBinary(filepath.Join(t.TempDir(), "absent"))}, "read binary:"},
		{[]testcontainers.ContainerCustomizer{WithBinary(bin), WithBridgeNetwork(), containers.WithHostNetwork()}, "contradict each other"},
		{[]testcontainers.ContainerCustomizer{WithBinary(bin), containers.WithAPIKey("k")}, "WithAPIKey: simengine has no API key setting"},
		{[]testcontainers.ContainerCustomizer{WithBinary(bin), WithTimeScale(0)}, "simengine.WithTimeScale: must be positive, got 0"},
		{[]testcontainers.ContainerCustomizer{WithBinary(bin), WithMaxModelLen(0)}, "simengine.WithMaxModelLen: must be positive, got 0"},
	}
	for _, c := range cases {
		_, err := request(c.opts...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

func TestDockerfileNeedsNoRegistry(t *testing.T) {
	lines := strings.Split(strings.TrimSpace(Dockerfile), "\n")
	if lines[0] != "FROM scratch" {
		t.Errorf("first line %q", lines[0])
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "#") || (strings.HasPrefix(l, "FROM") && l != "FROM scratch") {
			t.Errorf("line %q would make the builder pull", l)
		}
	}
}

func TestBuildContextIsATar(t *testing.T) {
	archive, tag, err := BuildContext([]byte("abc"))
	if err != nil {
		t.Fatal(err)
	}
	// sha256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
	if tag != "ba7816bf8f01" {
		t.Errorf("tag %q", tag)
	}
	files := untar(t, bytes.NewReader(archive))
	if files["simengine"].data != "abc" || files["Dockerfile"].mode != 0o644 {
		t.Errorf("files %+v", files)
	}
}

func TestLengthControl(t *testing.T) {
	if LengthControl() != openai.LengthIgnoreEOS {
		t.Errorf("LengthControl() = %q", LengthControl())
	}
}

func TestBuildBinaryReportsCompileErrors(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, err := BuildBinary(ctx, "github.com/servebench/servebench/cmd/no-such-command", t.TempDir())
	// The error names the package and carries the go tool's own words.
	if err == nil || !strings.Contains(err.Error(), "go build github.com/servebench/servebench/cmd/no-such-command") ||
		!strings.Contains(err.Error(), "no required module provides package") {
		t.Errorf("error %v", err)
	}
}
