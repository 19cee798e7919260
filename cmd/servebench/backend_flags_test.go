package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	neturl "net/url"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/report"
)

func TestRunBreaksDownByTheBackendHeader(t *testing.T) {
	url := startSim(t, nil)
	// A front that names the backend in a response header.
	target, err := neturl.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.FlushInterval = -1
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Served-By", "pod-1")
		// The engine finishes a request whose client has already read
		// [DONE] and hung up, so its counters count every request.
		proxy.ServeHTTP(w, r.WithContext(context.WithoutCancel(r.Context())))
	}))
	defer front.Close()
	code, stdout, stderr := runCLI("run", "--base-url", front.URL, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, twoRows), "--arrival", "constant", "--rate", "40", "--count", "6",
		"--schedule-lag-tolerance", "2s", "--output", t.TempDir(), "--format", "json", "--no-progress",
		"--backend-header", "X-Served-By", "--backend-metrics", url+"/metrics", "--skip-preflight")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if v := rep.Breakdown["backend"].Values["pod-1"]; v.Offered != 6 || v.Share != 1 {
		t.Errorf("breakdown %+v", rep.Breakdown["backend"])
	}
	if len(rep.BackendMetrics) != 1 || rep.BackendMetrics[0].Counters[`vllm:generation_tokens_total{model_name="simengine-tiny"}`] <= 0 {
		t.Errorf("backend metrics %+v", rep.BackendMetrics)
	}
	code, _, stderr = runCLI("run", "--base-url", url, "--model", "m", "--workload", writeWorkload(t, twoRows), "--count", "1",
		"--rate", "1", "--output", t.TempDir(), "--backend-header", "X Served")
	if code != 1 || !strings.Contains(stderr, "--backend-header: header \"X Served\"") {
		t.Errorf("a bad header name: exit %d, stderr %q", code, stderr)
	}
}
