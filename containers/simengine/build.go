package simengine

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// Package is the import path of the simulated engine's command.
const Package = "github.com/servebench/servebench/cmd/simengine"

// Dockerfile is the image recipe: the static binary alone on an empty base
// image. It has no "# syntax=" line and no build stage that pulls, so the
// classic builder makes it without a registry.
const Dockerfile = `FROM scratch
COPY simengine /simengine
ENTRYPOINT ["/simengine"]
`

// binaryName is the binary's name in the build context and the image.
const binaryName = "simengine"

// BuildBinary compiles pkg (normally Package) into a static Linux binary in
// dir: CGO_ENABLED=0, GOOS=linux, GOARCH of this process, -trimpath. It runs
// `go build` from the module that contains the current directory, so it works
// from any package of this repository. It returns the binary's path.
func BuildBinary(ctx context.Context, pkg, dir string) (string, error) {
	out := filepath.Join(dir, binaryName)
	modRoot, err := moduleRoot(ctx)
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", out, pkg)
	cmd.Dir = modRoot
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+runtime.GOARCH)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build %s: %w\n%s", pkg, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// moduleRoot returns the directory of the Go module that contains the
// current directory.
func moduleRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("the current directory is not inside a Go module; build the binary yourself and pass simengine.WithBinary")
	}
	return filepath.Dir(gomod), nil
}

// BuildContext returns an in-memory Docker build context (a tar archive)
// holding Dockerfile and the binary, and a short content hash of the binary
// used as the image tag.
func BuildContext(binary []byte) (archive []byte, tag string, err error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	files := []struct {
		name string
		mode int64
		data []byte
	}{
		{"Dockerfile", 0o644, []byte(Dockerfile)},
		{binaryName, 0o755, binary},
	}
	for _, f := range files {
		hdr := &tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.data)), Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, "", fmt.Errorf("build context %s: %w", f.name, err)
		}
		if _, err := tw.Write(f.data); err != nil {
			return nil, "", fmt.Errorf("build context %s: %w", f.name, err)
		}
	}
	if err := tw.Close(); err != nil {
		return nil, "", fmt.Errorf("build context: %w", err)
	}
	sum := sha256.Sum256(binary)
	return buf.Bytes(), hex.EncodeToString(sum[:])[:12], nil
}

// bytesReader returns a fresh reader over an archive; the build consumes it.
func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
