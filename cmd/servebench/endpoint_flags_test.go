package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An embeddings run against the simulated engine reports E2E and items/s
// and no TTFT; re-scoring it with a TTFT objective names the flag.
func TestEmbeddingsRunAndRescore(t *testing.T) {
	url := startSim(t, nil)
	w := writeWorkload(t, `{"input":["a b c","d e"]}`+"\n")
	out := filepath.Join(t.TempDir(), "run")
	code, _, stderr := runCLI("run", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "embeddings", "--workload", w,
		"--arrival", "constant", "--rate", "20", "--count", "4", "--e2e-slo", "5s", "--schedule-lag-tolerance", "5s",
		"--output", out, "--no-progress")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Endpoint    string                     `json:"endpoint"`
		Qualified   int                        `json:"qualified"`
		Percentiles map[string]json.RawMessage `json:"percentiles"`
		Throughput  []struct {
			Unit  string `json:"unit"`
			Count int    `json:"count"`
		} `json:"throughput"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	_, hasTTFT := rep.Percentiles["ttft_ms"]
	if rep.Endpoint != "embeddings" || rep.Qualified != 4 || hasTTFT || len(rep.Throughput) != 3 || rep.Throughput[1].Count != 8 {
		t.Fatalf("report: endpoint %q qualified %d ttft %v throughput %+v", rep.Endpoint, rep.Qualified, hasTTFT, rep.Throughput)
	}
	code, _, stderr = runCLI("score", "--run", out, "--ttft-slo", "1s")
	if code != 1 || !strings.Contains(stderr, "--ttft-slo: a ttft objective cannot be judged on the embeddings endpoint") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}
