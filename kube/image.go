package kube

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
)

// Dockerfile is the servebench image's recipe: the static binary and a CA
// bundle (so https endpoints verify) on an empty base image. Like the
// simulated engine's, it pulls nothing, so it builds without a registry.
const Dockerfile = `FROM scratch
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY servebench /servebench
ENTRYPOINT ["/servebench"]
`

// ImageCABundle is where the image keeps its CA bundle: the path Go's
// crypto/x509 reads first on Linux.
const ImageCABundle = "/etc/ssl/certs/ca-certificates.crt"

// ImageContext returns the image's Docker build context (a tar archive)
// from a static Linux servebench binary (CGO_ENABLED=0) and a PEM CA
// bundle, with a short content hash of both to tag the image.
func ImageContext(binary, caBundle []byte) (archive []byte, tag string, err error) {
	if len(binary) == 0 || !bytes.Contains(caBundle, []byte("-----BEGIN CERTIFICATE-----")) {
		return nil, "", errors.New("kube: the image needs the servebench binary and a PEM CA bundle")
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range []struct {
		name string
		mode int64
		data []byte
	}{
		{"Dockerfile", 0o644, []byte(Dockerfile)},
		{"ca-certificates.crt", 0o644, caBundle},
		{"servebench", 0o755, binary},
	} {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.data)), Typeflag: tar.TypeReg}); err != nil {
			return nil, "", fmt.Errorf("kube: build context %s: %w", f.name, err)
		}
		if _, err := tw.Write(f.data); err != nil {
			return nil, "", fmt.Errorf("kube: build context %s: %w", f.name, err)
		}
	}
	if err := tw.Close(); err != nil {
		return nil, "", fmt.Errorf("kube: build context: %w", err)
	}
	h := sha256.New()
	h.Write(binary)
	h.Write(caBundle)
	return buf.Bytes(), hex.EncodeToString(h.Sum(nil))[:12], nil
}
