package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// tenantRows are four rows of two tenants; each row also sends a token
// that must never reach an output.
const tenantRows = `{"id":"a1","prompt":"is the pager quiet","max_tokens":4,"ignore_eos":true,"headers":{"x-llm-d-inference-fairness-id":"acme","X-Tenant-Token":"tok-SECRET-1111"}}
{"id":"b1","prompt":"is the pager quiet","max_tokens":4,"ignore_eos":true,"headers":{"x-llm-d-inference-fairness-id":"bravo","X-Tenant-Token":"tok-SECRET-2222"}}
{"id":"a2","prompt":"summarize the incident","max_tokens":4,"ignore_eos":true,"headers":{"x-llm-d-inference-fairness-id":"acme","X-Tenant-Token":"tok-SECRET-1111"}}
{"id":"b2","prompt":"summarize the incident","max_tokens":4,"ignore_eos":true,"headers":{"x-llm-d-inference-fairness-id":"bravo","X-Tenant-Token":"tok-SECRET-2222"}}
`

// TestRunBreaksTheRunDownByTenant: a run whose rows carry a tenant header
// sends each row's headers, records each outcome's tenant, and reports the
// tenant dimension with Jain's index: both tenants attain 1, so J = 4 / (2
// × 2) = 1. No row's token reaches any file the run wrote.
func TestRunBreaksTheRunDownByTenant(t *testing.T) {
	f := startFront(t, false, nil)
	out := filepath.Join(t.TempDir(), "run")
	code, stdout, stderr := runCLI("run", "--base-url", f.url, "--model", "simengine-tiny", "--endpoint", "completions",
		"--workload", writeWorkload(t, tenantRows), "--arrival", "constant", "--rate", "40", "--count", "4",
		"--schedule-lag-tolerance", "2s", "--no-progress", "--output", out)
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	f.mu.Lock()
	tokens := map[string]string{}
	for _, h := range f.gotHeader {
		if tenant := h.Get("X-Llm-D-Inference-Fairness-Id"); tenant != "" {
			tokens[tenant] = h.Get("X-Tenant-Token")
		}
	}
	f.mu.Unlock()
	if tokens["acme"] != "tok-SECRET-1111" || tokens["bravo"] != "tok-SECRET-2222" {
		t.Errorf("the engine got tokens %v by tenant", tokens)
	}
	r, err := report.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	bd := r.Breakdown["tenant"]
	if bd == nil {
		t.Fatalf("report.json has no tenant breakdown: %v", r.Breakdown)
	}
	for _, tenant := range []string{"acme", "bravo"} {
		if v := bd.Values[tenant]; v.Offered != 2 || v.Attainment == nil || *v.Attainment != 1 {
			t.Errorf("tenant %s: %+v", tenant, v)
		}
	}
	if bd.Jain == nil || math.Abs(*bd.Jain-1) > 1e-12 {
		t.Errorf("Jain %v, want 1", bd.Jain)
	}
	outcomes, err := os.ReadFile(filepath.Join(out, "outcomes.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(outcomes)), "\n") {
		var o record.Outcome
		if err := json.Unmarshal([]byte(line), &o); err != nil {
			t.Fatal(err)
		}
		if want := map[byte]string{'a': "acme", 'b': "bravo"}[o.ID[0]]; o.Tenant != want {
			t.Errorf("outcome %s: tenant %q, want %q", o.ID, o.Tenant, want)
		}
	}
	texts := stdout + stderr
	_ = filepath.Walk(out, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && !strings.HasSuffix(p, "workload.jsonl") {
			b, _ := os.ReadFile(p)
			texts += string(b)
		}
		return nil
	})
	if strings.Contains(texts, "SECRET") {
		t.Error("a row header's value reached an output")
	}
}

// TestRowHeaderThatServebenchSetsIsRefusedBeforeLoad: exit 1 naming the
// file, line and field, and nothing reaches the engine.
func TestRowHeaderThatServebenchSetsIsRefusedBeforeLoad(t *testing.T) {
	f := startFront(t, false, nil)
	w := writeWorkload(t, `{"prompt":"x","max_tokens":4}`+"\n"+`{"prompt":"y","max_tokens":4,"headers":{"X-Request-Id":"SECRETVALUE"}}`+"\n")
	code, stdout, stderr := runCLI("run", "--base-url", f.url, "--model", "simengine-tiny", "--workload", w,
		"--rate", "10", "--count", "2", "--no-progress", "--output", filepath.Join(t.TempDir(), "run"))
	want := w + `:2: headers: header "X-Request-Id": servebench sets this header itself`
	if code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}
	if strings.Contains(stdout+stderr, "SECRETVALUE") {
		t.Errorf("the value is quoted: %q", stderr)
	}
	if n := f.generate.Load() + f.models.Load(); n != 0 {
		t.Errorf("%d requests reached the engine; want none", n)
	}
	code, _, stderr = runCLI(runArgs(t, f.url, "--output", filepath.Join(t.TempDir(), "run"), "--tenant-header", "Authorization")...)
	if want := `--tenant-header: header "Authorization": servebench sets this header itself`; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}
}
