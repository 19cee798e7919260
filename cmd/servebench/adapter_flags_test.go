package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadAdapterMixIsRefusedBeforeAnyLoad: a bad weight or form is named
// with its flag, and nothing is sent or written.
func TestBadAdapterMixIsRefusedBeforeAnyLoad(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--adapters", "sql=0.5,chat=0"}, "--adapters: chat: the weight must be a positive number"},
		{[]string{"--adapters", "sql=a"}, `--adapters: sql: the weight "a" is not a number`},
		{[]string{"--adapters", "sql"}, `--adapters: "sql" is not NAME=WEIGHT`},
		{[]string{"--adapters", "sql=1", "--adapter-form", "colon"}, `--adapter-form: want name or base:adapter, got "colon"`},
		{[]string{"--adapters", "sql=1", "--adapter-assignment", "cyclic"}, `--adapter-assignment: want random or round-robin, got "cyclic"`},
		{[]string{"--adapter-assignment", "round-robin"}, "--adapter-assignment: it assigns the adapters of --adapters, and there are none"},
		{[]string{"--load-adapters", "sql"}, `--load-adapters: want NAME=PATH, got "sql"`},
		{[]string{"--load-adapters", "sql=/a,sql=/b"}, `--load-adapters: adapter "sql" given twice`},
		{[]string{"--load-adapters", "sql=/a", "--adapter-load-timeout", "0s"}, "--adapter-load-timeout: want a duration above 0, got 0s"},
		{[]string{"--load-adapters", "sql=/a", "--shard", "0/2", "--run-id", "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", "--start-at", "2099-01-01T00:00:00Z"}, "--load-adapters: every shard would load the adapters"},
	} {
		out := filepath.Join(t.TempDir(), "run")
		// Nothing listens on the URL: a refusal must come before any send.
		args := append([]string{"run", "--base-url", "http://127.0.0.1:1", "--model", "m", "--workload", writeWorkload(t, twoRows),
			"--count", "2", "--rate", "1", "--output", out, "--no-progress"}, tc.args...)
		code, _, stderr := runCLI(args...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, stderr, tc.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: the run directory was made (%v)", tc.args, err)
		}
	}
}
