package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// TestBadImageFlagsAreRefusedBeforeAnyLoad: each bad value is named with
// its flag, and nothing is sent or written.
func TestBadImageFlagsAreRefusedBeforeAnyLoad(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--images", "256x256=0"}, `--images: image size "256x256=0": want a weight greater than 0`},
		{[]string{"--images", "big"}, `--images: image size "big": want WIDTHxHEIGHT in pixels`},
		{[]string{"--images", "8x8", "--image-format", "webp"}, `--image-format: unknown image format "webp": want jpeg or png`},
		{[]string{"--images", "8x8", "--image-content", "photo"}, `--image-content: unknown image content "photo": want noise or gradient`},
		{[]string{"--images", "8x8", "--image-transport", "ftp"}, `--image-transport: unknown image transport "ftp": want data or http`},
		{[]string{"--images", "8x8", "--images-per-request", "0"}, "--images-per-request: must be at least 1, got 0"},
		{[]string{"--images", "8x8", "--image-pool", "-1"}, "--image-pool: must be at least 1, got -1"},
		{[]string{"--images", "8x8", "--image-server", "127.0.0.1:0"}, "--image-server: only with --image-transport http"},
		{[]string{"--images", "8x8", "--endpoint", "completions"}, "--images: the completions endpoint takes no images (use --endpoint chat or responses)"},
	} {
		out := filepath.Join(t.TempDir(), "run")
		args := append([]string{"run", "--base-url", "http://127.0.0.1:1", "--model", "m", "--workload", writeWorkload(t, twoRows),
			"--count", "2", "--rate", "1", "--output", out, "--no-progress"}, tc.args...)
		code, _, stderr := runCLI(args...)
		if code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, stderr, tc.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: the run directory was made (%v)", tc.args, err)
		}
	}
}

// TestRunWithSyntheticImagesOverHTTP runs 4 requests, each with one 64×64
// gradient PNG served by servebench's loopback file server, against the
// simulated engine (16 px patches): every outcome counts 1 image of
// 64·64 = 4,096 pixels and the engine's (64/16)² = 16 image tokens, and
// the report breaks the run down by modality: image, 4 of 4.
func TestRunWithSyntheticImagesOverHTTP(t *testing.T) {
	url := startSim(t, nil)
	out := filepath.Join(t.TempDir(), "run")
	code, stdout, stderr := runCLI("run", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, twoRows), "--arrival", "constant", "--rate", "40", "--count", "4",
		"--schedule-lag-tolerance", "2s", "--output", out, "--format", "json", "--no-progress",
		"--images", "64x64", "--image-format", "png", "--image-content", "gradient", "--image-pool", "3", "--image-transport", "http")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.ProtocolSuccesses != 4 || rep.Breakdown["modality"] == nil || rep.Breakdown["modality"].Values["image"].Offered != 4 {
		t.Fatalf("successes %d, breakdown %+v", rep.ProtocolSuccesses, rep.Breakdown["modality"])
	}
	f, err := os.Open(filepath.Join(out, "outcomes.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); n++ {
		var o record.Outcome
		if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
			t.Fatal(err)
		}
		if o.Images != 1 || o.ImagePixels != 4096 || o.ImageBytes == 0 || o.ImageTokens == nil || *o.ImageTokens != 16 {
			t.Fatalf("outcome %s: images %d pixels %d bytes %d image tokens %v", o.ID, o.Images, o.ImagePixels, o.ImageBytes, o.ImageTokens)
		}
	}
	if n != 4 || !strings.Contains(stderr, "images: 3 prepared") || !strings.Contains(stderr, "images: served at http://127.0.0.1:") {
		t.Fatalf("%d outcomes; stderr:\n%s", n, stderr)
	}
}
