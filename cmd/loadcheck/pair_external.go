package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// externalClient is a servebench CLI binary, built at any commit, that a
// paired run alternates with the lean client and servebench's own run
// path: it runs "PATH run" against the mock engine and the pair reads its
// run directory back.
type externalClient struct {
	label string // how the report names it
	path  string
}

// reservedLabels are the names of the in-process clients.
var reservedLabels = map[string]bool{"lean": true, "servebench": true}

// externalClients pairs each -also-servebench path with the -also-label of
// the same position, or labels it by the binary's file name.
func externalClients(paths, labels []string) ([]externalClient, error) {
	if len(labels) > len(paths) {
		return nil, fmt.Errorf("-also-label: %d labels for %d -also-servebench binaries", len(labels), len(paths))
	}
	seen := map[string]bool{}
	var out []externalClient
	for i, p := range paths {
		if p == "" {
			return nil, errors.New("-also-servebench: empty path")
		}
		label := filepath.Base(p)
		if i < len(labels) {
			label = labels[i]
		}
		switch {
		case label == "" || strings.ContainsAny(label, " \t\n"):
			return nil, fmt.Errorf("-also-label: want a label without blanks, got %q", label)
		case reservedLabels[label]:
			return nil, fmt.Errorf("-also-label: %q names an in-process client; give %s another label", label, p)
		case seen[label]:
			return nil, fmt.Errorf("-also-label: %q labels two binaries; give each its own -also-label", label)
		}
		seen[label] = true
		out = append(out, externalClient{label: label, path: p})
	}
	return out, nil
}

// externalRunFlags are the flags of "servebench run" an external phase
// passes; every one of them is in the CLI since e12cfa1.
var externalRunFlags = []string{"base-url", "model", "endpoint", "workload", "output", "arrival", "rate", "duration",
	"seed", "skip-preflight", "no-progress", "gpu-sample-interval", "timeout", "idle-timeout"}

// check makes sure, before any load, that the binary runs and that its
// "run -h" lists every flag an external phase passes.
func (e externalClient) check() error {
	info, err := os.Stat(e.path)
	if err != nil {
		return fmt.Errorf("-also-servebench: %w", err)
	}
	if !info.Mode().IsRegular() || info.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("-also-servebench: %s is not an executable file", e.path)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	help, _ := exec.CommandContext(ctx, e.path, "run", "-h").CombinedOutput() // -h exits 0 or 2 by version
	listed := map[string]bool{}
	for _, line := range strings.Split(string(help), "\n") {
		if f := strings.Fields(line); len(f) > 0 && strings.HasPrefix(f[0], "-") {
			listed[strings.TrimLeft(f[0], "-")] = true
		}
	}
	var missing []string
	for _, f := range externalRunFlags {
		if !listed[f] {
			missing = append(missing, "-"+f)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("-also-servebench: %q run -h lists no %s: not a servebench binary this mode can drive",
			e.path, strings.Join(missing, ", "))
	}
	return nil
}

// workloadRows is the workload both servebench clients send: 256 rows of
// a short prompt, each asking for tokens tokens.
func workloadRows(tokens int) []byte {
	var rows bytes.Buffer
	for i := range 256 {
		fmt.Fprintf(&rows, "{\"id\":\"p%03d\",\"prompt\":\"load check prompt %d\",\"max_tokens\":%d}\n", i, i, tokens)
	}
	return rows.Bytes()
}

// runExternalPhase runs "PATH run" with the phase's load in a child
// process of its own, pinned to cpu when pin is set, and reads each
// request's clocks back from its run directory. CPU and peak RSS come from
// the child: at the moment its last outcome record was written (sampled
// from /proc) and, with scoring and reports, from its rusage when it
// exited.
func runExternalPhase(e externalClient, l phaseLoad, cpu int, pin bool) (*phaseResult, bool, error) {
	dir, err := os.MkdirTemp("", "loadcheck-external-")
	if err != nil {
		return nil, false, err
	}
	defer os.RemoveAll(dir)
	workload, out := filepath.Join(dir, "workload.jsonl"), filepath.Join(dir, "run")
	if err := os.WriteFile(workload, workloadRows(l.tokens), 0o644); err != nil {
		return nil, false, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), l.duration+3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, e.path, "run", "--base-url", l.url, "--model", "loadcheck",
		"--endpoint", "completions", "--workload", workload, "--output", out,
		"--arrival", l.arrival, "--rate", strconv.FormatFloat(l.rate, 'g', -1, 64), "--duration", l.duration.String(),
		"--seed", strconv.FormatUint(l.seed, 10), "--skip-preflight", "--no-progress", "--gpu-sample-interval", "0",
		"--timeout", "1m", "--idle-timeout", "10s")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr // the report on stdout is not needed: the run directory holds it
	pinned, err := start(cmd, cpu, pin)
	if err != nil {
		return nil, false, err
	}
	w := watchChild(cmd.Process.Pid, filepath.Join(out, "outcomes.jsonl"))
	waitErr := cmd.Wait()
	sending, sawEnd := w.stop()
	// Exit 2: the run's accounting is there but the load was not delivered
	// (a request unsent or late); the figures say so.
	if exit := (*exec.ExitError)(nil); waitErr != nil && (!errors.As(waitErr, &exit) || exit.ExitCode() != 2) {
		return nil, false, fmt.Errorf("%s run: %w\n%s", e.path, waitErr, tail(stderr.String(), 2000))
	}
	rd, err := readRunDir(out)
	if err != nil {
		return nil, false, fmt.Errorf("%s run: %w", e.path, err)
	}
	server, err := takeServerTTFT(l.url, rd.runID+"/")
	if err != nil {
		return nil, false, err
	}
	res := &phaseResult{Client: e.label, PeakInFlight: rd.peakInFlight, Notes: rd.notes}
	res.fill(rd.timings, server)
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	n := float64(max(len(rd.timings), 1))
	if ru != nil {
		res.CPUWithScoringPerRequestMS = cpuMS(ru) / n
		res.PeakRSSMB = float64(ru.Maxrss) * 1024 / 1e6
	}
	if sawEnd {
		res.CPUPerRequestMS = sending.cpuMS / n
		res.PeakRSSSendingMB = float64(sending.hwmKB) * 1024 / 1e6
	} else {
		res.CPUPerRequestMS = res.CPUWithScoringPerRequestMS
		res.Notes = append(res.Notes, "CPU/request includes scoring and reports: the end of the sending was not seen in /proc")
	}
	return res, pinned, nil
}

// tail is the last n bytes of s.
func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
