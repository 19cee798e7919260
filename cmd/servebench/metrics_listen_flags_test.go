package main

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// freeAddr returns a loopback address no one listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	return addr
}

func TestSweepServesLiveMetricsWhileItRunsAndStopsAfter(t *testing.T) {
	url := startSim(t, nil)
	addr := freeAddr(t)
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		code, stdout, stderr := runCLI("sweep", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat",
			"--workload", writeWorkload(t, twoRows), "--arrival", "constant", "--rates", "10,20", "--count", "20",
			"--schedule-lag-tolerance", "2s", "--output", t.TempDir(), "--no-progress", "--metrics-listen", addr)
		done <- result{code, stdout, stderr}
	}()
	// Scrape until the second load point shows (bounded: 10 s).
	var body string
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) && !strings.Contains(body, "servebench_load_point_offered_rate_rps 20\n") {
		if resp, err := http.Get("http://" + addr + "/metrics"); err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			body = string(b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	r := <-done
	if r.code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if !strings.Contains(body, "servebench_load_point_offered_rate_rps 20\n") ||
		!strings.Contains(body, `servebench_load_points_started_total{process="constant"} 2`) {
		t.Errorf("no scrape saw the second load point; last scrape:\n%s", body)
	}
	if !strings.Contains(r.stderr, "live metrics: http://"+addr+"/metrics") {
		t.Errorf("stderr does not say where the metrics are served:\n%s", r.stderr)
	}
	if _, err := http.Get("http://" + addr + "/metrics"); err == nil {
		t.Error("the metrics server still answers after the sweep")
	}
}
