package kube

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The limits that decide how a workload reaches the pods. The API server
// refuses a ConfigMap whose data exceeds MaxConfigMapBytes (1 MiB), so the
// workload travels gzip-compressed, cut into parts of WorkloadPartBytes,
// one ConfigMap each; an init container joins and checks them. A part
// leaves room under the limit for the object's metadata. A workload whose
// compressed size needs more than MaxWorkloadParts parts (24 MiB) is
// refused: build it into the image instead.
const (
	MaxConfigMapBytes = 1 << 20
	WorkloadPartBytes = 768 << 10
	MaxWorkloadParts  = 32
)

// workloadPartKey is the ConfigMap key (and file name in the projected
// volume) of part i.
func workloadPartKey(i int) string { return fmt.Sprintf("part-%03d", i) }

// PackWorkload gzip-compresses a workload's bytes and cuts them into the
// parts the ConfigMaps carry, in order. It refuses a workload that needs
// more than MaxWorkloadParts parts, naming its sizes and the way out.
func PackWorkload(name string, data []byte) ([][]byte, error) {
	var z bytes.Buffer
	w, err := gzip.NewWriterLevel(&z, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	packed := z.Bytes()
	if n := (len(packed) + WorkloadPartBytes - 1) / WorkloadPartBytes; n > MaxWorkloadParts {
		return nil, fmt.Errorf("kube: workload %s is %s (%s gzip-compressed): a Job carries at most %d ConfigMaps of %s, %s compressed; "+
			"build the workload into the servebench image (COPY it beside the binary and pass --workload with its path in the image) or shrink it",
			name, byteSize(len(data)), byteSize(len(packed)), MaxWorkloadParts, byteSize(WorkloadPartBytes), byteSize(MaxWorkloadParts*WorkloadPartBytes))
	}
	var parts [][]byte
	for len(packed) > 0 {
		n := min(len(packed), WorkloadPartBytes)
		parts = append(parts, packed[:n:n])
		packed = packed[n:]
	}
	return parts, nil
}

// UnpackWorkload joins the parts in dir (part-000, part-001, ... as the
// rendered ConfigMaps project them), decompresses them, checks that the
// bytes hash to wantSHA256 (hex) and writes them to out. The init
// container of every shard's pod runs it through `servebench k8s
// unpack-workload`.
func UnpackWorkload(dir, wantSHA256, out string) error {
	names, err := filepath.Glob(filepath.Join(dir, "part-*"))
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return fmt.Errorf("kube: %s holds no workload part (part-000...)", dir)
	}
	slices.Sort(names)
	readers := make([]io.Reader, 0, len(names))
	for i, n := range names {
		if filepath.Base(n) != workloadPartKey(i) {
			return fmt.Errorf("kube: %s: part %s is missing", dir, workloadPartKey(i))
		}
		f, err := os.Open(n)
		if err != nil {
			return err
		}
		defer func() { _ = f.Close() }()
		readers = append(readers, f)
	}
	z, err := gzip.NewReader(io.MultiReader(readers...))
	if err != nil {
		return fmt.Errorf("kube: %s: the parts are not a gzip stream: %w", dir, err)
	}
	data, err := io.ReadAll(z)
	if err != nil {
		return fmt.Errorf("kube: %s: %w", dir, err)
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); !strings.EqualFold(got, wantSHA256) {
		return fmt.Errorf("kube: %s: the joined workload hashes to %s, not %s: a part is missing or from another render", dir, got, wantSHA256)
	}
	if out == "" {
		return errors.New("kube: no output file for the workload")
	}
	return os.WriteFile(out, data, 0o644)
}

// byteSize writes a size in KiB or MiB.
func byteSize(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
}
