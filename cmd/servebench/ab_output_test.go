package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestABRefusesAnOutputThatIsNotEmpty: ab into a directory that already
// holds rounds is refused before any round, and --overwrite there without
// a manifest removes nothing.
func TestABRefusesAnOutputThatIsNotEmpty(t *testing.T) {
	out := t.TempDir()
	old := filepath.Join(out, "baseline", "round-1", "report.json")
	if err := os.MkdirAll(filepath.Dir(old), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(old, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"ab", "--baseline-url", "http://127.0.0.1:1", "--candidate-url", "http://127.0.0.1:2", "--model", "m",
		"--workload", writeWorkload(t, twoRows), "--arrival", "constant", "--rate", "1", "--count", "1", "--output", out}
	code, _, stderr := runCLI(args...)
	if code != 1 || !strings.Contains(stderr, "servebench ab: --output "+out+" is not empty (it holds baseline)") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCLI(append(args, "--overwrite")...)
	if code != 1 || !strings.Contains(stderr, "holds no manifest.json") {
		t.Fatalf("--overwrite: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(old); err != nil {
		t.Fatalf("the earlier round was removed: %v", err)
	}
}
