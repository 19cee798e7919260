package standine2e_test

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/moby/moby/client"
	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/simengine"
)

// standinPackage is the stand-in executable.
const standinPackage = "github.com/servebench/servebench/cmd/enginestandin"

// imageRepo names the stand-in images; the tag is <engine>-<binary hash>.
const imageRepo = "servebench-engine-standin"

// dockerfile builds one image layer with the stand-in under every engine's
// command name, and one target per engine that sets the entrypoint the
// engine's own image has.
const dockerfile = `FROM scratch AS base
ENV PATH=/usr/local/bin
COPY enginestandin /usr/local/bin/vllm
COPY enginestandin /usr/local/bin/python3
COPY enginestandin /usr/local/bin/text-generation-launcher
COPY enginestandin /usr/local/bin/llama-server

FROM base AS vllm
ENTRYPOINT ["vllm", "serve"]

FROM base AS sglang

FROM base AS tgi
ENV PORT=80
ENTRYPOINT ["text-generation-launcher"]

FROM base AS llamacpp
ENTRYPOINT ["llama-server"]
`

var (
	// binDir holds the stand-in under every engine's command name, for
	// local processes.
	binDir string
	// buildContext is the image build context; binaryTag is the binary's
	// hash, part of every image tag.
	buildContext []byte
	binaryTag    string
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if err := containers.UseAirGappedDefaults(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	dir, err := os.MkdirTemp("", "enginestandin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	bin, err := simengine.BuildBinary(ctx, standinPackage, dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	binDir = dir
	for _, name := range []string{"vllm", "python3", "text-generation-launcher", "llama-server"} {
		if err := os.Symlink(bin, filepath.Join(dir, name)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	sum := sha256.Sum256(data)
	binaryTag = hex.EncodeToString(sum[:])[:12]
	if buildContext, err = tarContext(data); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	code := m.Run()
	removeImages()
	return code
}

// tarContext returns the build context: the Dockerfile and the binary.
func tarContext(binary []byte) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range []struct {
		name string
		mode int64
		data []byte
	}{{"Dockerfile", 0o644, []byte(dockerfile)}, {"enginestandin", 0o755, binary}} {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.data)), Typeflag: tar.TypeReg}); err != nil {
			return nil, err
		}
		if _, err := tw.Write(f.data); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), tw.Close()
}

// image returns the reference Run is given and the customizer that builds
// the engine's target of the stand-in image in its place (cached by Docker
// after the first engine, kept until the tests end).
func image(engine string) (string, testcontainers.CustomizeRequestOption) {
	ref := imageRepo + ":" + engine + "-" + binaryTag
	return ref, func(req *testcontainers.GenericContainerRequest) error {
		req.Image = ""
		req.FromDockerfile = testcontainers.FromDockerfile{
			ContextArchive: bytes.NewReader(buildContext),
			Repo:           imageRepo,
			Tag:            engine + "-" + binaryTag,
			KeepImage:      true,
			BuildOptionsModifier: func(o *client.ImageBuildOptions) {
				o.Target = engine
			},
		}
		return nil
	}
}

// removeImages removes the stand-in images the tests built.
func removeImages() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if containers.DockerSkipReason(ctx) != "" {
		return
	}
	cli, err := testcontainers.NewDockerClientWithOpts(ctx)
	if err != nil {
		return
	}
	defer cli.Close()
	for _, engine := range []string{"vllm", "sglang", "tgi", "llamacpp"} {
		_, _ = cli.ImageRemove(ctx, imageRepo+":"+engine+"-"+binaryTag, client.ImageRemoveOptions{PruneChildren: true})
	}
}

// executable is the stand-in under an engine's command name.
func executable(name string) string { return filepath.Join(binDir, name) }
