package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/fixtures"
	"github.com/servebench/servebench/fixtures/traces"
)

// The command writes the same bytes and side file as the Go generator.
func TestWorkloadGenerateMatchesTheGenerator(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "cli.jsonl")
	code, stdout, stderr := runCLI("workload", "generate", "fixed", "--count", "4", "--seed", "7", "--prompt-tokens", "64",
		"--max-tokens", "16", "--output-policy", "natural", "--output", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := filepath.Join(dir, "go.jsonl")
	if _, err := fixtures.WriteWorkloadFiles(want, fixtures.FixedShape{Seed: 7, Requests: 4, PromptTokens: 64, MaxTokens: 16, Output: fixtures.OutputNatural}); err != nil {
		t.Fatal(err)
	}
	for _, pair := range [][2]string{{out, want}, {fixtures.MetaPath(out), fixtures.MetaPath(want)}} {
		a, _ := os.ReadFile(pair[0])
		b, _ := os.ReadFile(pair[1])
		b = bytes.Replace(b, []byte(`"go.jsonl"`), []byte(`"cli.jsonl"`), 1)
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Fatalf("%s differs from %s", pair[0], pair[1])
		}
	}
	if !strings.Contains(stdout, "4 rows") {
		t.Fatalf("stdout %q", stdout)
	}
	// A parameter the generator does not have is refused by name.
	code, _, stderr = runCLI("workload", "generate", "mixed", "--params", `{"colour":"red"}`, "--output", filepath.Join(dir, "x.jsonl"))
	if code != 1 || !strings.Contains(stderr, `unknown field "colour"`) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, _, stderr = runCLI("workload", "generate", "shared-prefix", "--count", "3", "--output", filepath.Join(dir, "x.jsonl"))
	if code != 1 || !strings.Contains(stderr, "give groups and requests_per_group") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

// An import writes the importer's rows and a side file with the hashes of
// both the trace and the workload.
func TestWorkloadImportBurstGPT(t *testing.T) {
	src := filepath.Join("..", "..", "fixtures", "samples", "burstgpt-sample.csv")
	out := filepath.Join(t.TempDir(), "bg.jsonl")
	code, _, stderr := runCLI("workload", "import", "burstgpt", src, "--output", out, "--failed", "drop", "--limit", "6", "--seed", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	raw, _ := os.ReadFile(src)
	var want bytes.Buffer
	if _, err := traces.ImportBurstGPT(&want, bytes.NewReader(raw), src, traces.BurstGPTOptions{Failed: traces.DropFailed, Limit: 6, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	if !bytes.Equal(got, want.Bytes()) || bytes.Count(got, []byte("\n")) != 6 {
		t.Fatalf("rows differ from the importer's")
	}
	var meta struct {
		WorkloadSHA256 string `json:"workload_sha256"`
		Parameters     struct {
			Importer     string `json:"importer"`
			SourceSHA256 string `json:"source_sha256"`
		} `json:"parameters"`
	}
	side, _ := os.ReadFile(fixtures.MetaPath(out))
	if err := json.Unmarshal(side, &meta); err != nil {
		t.Fatal(err)
	}
	hw, hs := sha256.Sum256(got), sha256.Sum256(raw)
	if meta.WorkloadSHA256 != hex.EncodeToString(hw[:]) || meta.Parameters.SourceSHA256 != hex.EncodeToString(hs[:]) || meta.Parameters.Importer != "burstgpt" {
		t.Fatalf("side file hashes %+v", meta)
	}
}

// Importer errors name the file, the line and the column.
func TestWorkloadImportErrorNamesFileAndLine(t *testing.T) {
	src := filepath.Join(t.TempDir(), "bad.csv")
	if err := os.WriteFile(src, []byte("Timestamp,Request tokens,Response tokens\n0,10,5\nsoon,10,5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI("workload", "import", "burstgpt", src, "--output", filepath.Join(t.TempDir(), "w.jsonl"), "--failed", "keep")
	if code != 1 || !strings.Contains(stderr, src+`:3:1: column "Timestamp": "soon"`) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI("workload", "import", "csv", src, "--output", "x"); code != 1 || !strings.Contains(stderr, `no importer for format "csv"`) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

// "workload generate embeddings --batch-size N" writes batched rows the
// embeddings endpoint takes.
func TestWorkloadGenerateEmbeddingsBatches(t *testing.T) {
	out := filepath.Join(t.TempDir(), "e.jsonl")
	code, _, stderr := runCLI("workload", "generate", "embeddings", "--count", "3", "--batch-size", "8", "--input-tokens", "4", "--output", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d rows", len(lines))
	}
	var row struct{ Input []string }
	if err := json.Unmarshal([]byte(lines[0]), &row); err != nil || len(row.Input) != 8 {
		t.Fatalf("row %s: %v", lines[0], err)
	}
}
