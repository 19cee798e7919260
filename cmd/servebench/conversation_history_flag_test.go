package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnknownHistoryIsRefusedBeforeAnyLoad: run, sweep and ab refuse a
// --history that is neither engine nor workload, naming the flag, before
// anything is sent or written.
func TestUnknownHistoryIsRefusedBeforeAnyLoad(t *testing.T) {
	const want = `--history: want engine or workload, got "answers"`
	for _, cmd := range [][]string{
		{"run", "--count", "2", "--rate", "1"},
		{"sweep", "--count", "2", "--rates", "1,2"},
		{"ab", "--count", "2", "--rate", "1", "--baseline-url", "http://127.0.0.1:1", "--candidate-url", "http://127.0.0.1:2"},
	} {
		out := filepath.Join(t.TempDir(), "run")
		// Nothing listens on the URL: a refusal must come before any send.
		args := cmd
		if cmd[0] != "ab" {
			args = append(args, "--base-url", "http://127.0.0.1:1")
		}
		args = append(args, "--model", "m", "--workload", writeWorkload(t, twoRows),
			"--output", out, "--no-progress", "--history", "answers")
		code, _, stderr := runCLI(args...)
		if code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr %q, want exit 1 and %q", cmd[0], code, stderr, want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: the output directory was made (%v)", cmd[0], err)
		}
	}
}
