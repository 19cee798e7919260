package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// readmeCommands returns the shell commands of the README's first sh block
// after heading, continuation lines joined and a trailing "&" dropped.
func readmeCommands(t *testing.T, heading string) [][]string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	i := strings.Index(text, heading)
	if i < 0 {
		t.Fatalf("README has no %q", heading)
	}
	text = text[i:]
	start := strings.Index(text, "```sh\n")
	end := strings.Index(text[start+6:], "```")
	block := strings.ReplaceAll(text[start+6:start+6+end], "\\\n", " ")
	var cmds [][]string
	for _, line := range strings.Split(block, "\n") {
		line = strings.TrimSuffix(strings.TrimSpace(line), "&")
		if line != "" {
			cmds = append(cmds, strings.Fields(line))
		}
	}
	return cmds
}

// TestREADMEExamplesRunAsWritten starts the simulated engine with the
// README's own flags and runs each servebench command as written, but
// with the engine's address (its port is chosen by the system) and with
// the run directories under a temporary directory.
func TestREADMEExamplesRunAsWritten(t *testing.T) {
	if testing.Short() {
		t.Skip("the README's examples run for about 20 s")
	}
	cmds := readmeCommands(t, "### Running against an endpoint")
	if len(cmds) != 4 || strings.Join(cmds[0][:3], " ") != "go run ./cmd/simengine" {
		t.Fatalf("the README's block changed shape: %q", cmds)
	}
	cfg := simengine.DefaultConfig()
	fs := flag.NewFlagSet("simengine", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addr := fs.String("addr", "", "")
	cfg.RegisterFlags(fs)
	if err := fs.Parse(cmds[0][3:]); err != nil {
		t.Fatalf("the README's simengine flags: %v", err)
	}
	engine, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = engine.Close() })
	readmeURL := "http://" + *addr

	root := t.TempDir()
	for _, c := range cmds[1:] {
		if strings.Join(c[:3], " ") != "go run ./cmd/servebench" {
			t.Fatalf("not a servebench command: %q", c)
		}
		args := append([]string(nil), c[3:]...)
		for i := 1; i < len(args); i++ {
			switch args[i-1] {
			case "--base-url":
				if args[i] != readmeURL {
					t.Fatalf("--base-url %s is not the simulated engine's %s", args[i], readmeURL)
				}
				args[i] = engine.BaseURL()
			case "--output", "--run":
				args[i] = filepath.Join(root, args[i])
			case "--workload":
				args[i] = filepath.Join("../..", args[i])
			}
		}
		code, stdout, stderr := runCLI(args...)
		// A verdict is not a broken example: on a loaded machine a run may
		// miss its lag tolerance (2), its attainment (3) or a sweep every
		// rate (4). Bad input or a failed preflight (1) is broken.
		if code == 1 || code > 4 {
			t.Fatalf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(c, " "), code, stdout, stderr)
		}
		if code != 0 {
			t.Logf("%s: exit %d (a verdict on this machine's load)\n%s", strings.Join(c, " "), code, stderr)
		}
	}
	// Every request of every run the examples made succeeded: none failed
	// for a model name the engine does not serve or a prompt beyond its
	// context.
	reports, err := filepath.Glob(filepath.Join(root, "runs", "*", record.ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	sweepReports, _ := filepath.Glob(filepath.Join(root, "runs", "*", "rate-*", record.ReportFile))
	reports = append(reports, sweepReports...)
	if len(reports) != 3 {
		t.Fatalf("the examples wrote %d reports, want 3 (one run, two sweep rates): %q", len(reports), reports)
	}
	for _, path := range reports {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var rep report.Report
		if err := json.Unmarshal(data, &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Offered == 0 || rep.ProtocolSuccesses != rep.Offered {
			t.Errorf("%s: %d of %d offered requests succeeded; statuses %v", path, rep.ProtocolSuccesses, rep.Offered, rep.StatusCounts)
		}
	}
}
