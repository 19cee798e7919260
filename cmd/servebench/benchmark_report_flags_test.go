package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/llmdreport"
	"sigs.k8s.io/yaml"
)

func TestRunWritesTheBenchmarkReportInTheChosenFormat(t *testing.T) {
	url := startSim(t, nil)
	wl := writeWorkload(t, twoRows)
	for _, tc := range []struct{ flag, file, absent string }{
		{"", llmdreport.FileJSON, llmdreport.FileYAML},
		{"yaml", llmdreport.FileYAML, llmdreport.FileJSON},
	} {
		out := filepath.Join(t.TempDir(), "run")
		args := []string{"run", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat", "--workload", wl,
			"--arrival", "constant", "--rate", "40", "--count", "4", "--schedule-lag-tolerance", "2s", "--output", out, "--no-progress"}
		if tc.flag != "" {
			args = append(args, "--benchmark-report", tc.flag)
		}
		code, _, stderr := runCLI(args...)
		if code != 0 {
			t.Fatalf("--benchmark-report %q: exit %d, stderr:\n%s", tc.flag, code, stderr)
		}
		data, err := os.ReadFile(filepath.Join(out, tc.file))
		if err != nil {
			t.Fatalf("--benchmark-report %q: %v", tc.flag, err)
		}
		if tc.flag == "yaml" {
			if data, err = yaml.YAMLToJSON(data); err != nil {
				t.Fatal(err)
			}
		}
		var br llmdreport.Report
		if err := json.Unmarshal(data, &br); err != nil {
			t.Fatal(err)
		}
		if agg := br.Results.RequestPerformance.Aggregate; br.Version != "0.2.1" || agg.Requests.Total != 4 || agg.Requests.OutputLength.Mean != 4 {
			t.Errorf("--benchmark-report %q: version %s, requests %+v", tc.flag, br.Version, agg.Requests)
		}
		if _, err := os.Stat(filepath.Join(out, tc.absent)); !os.IsNotExist(err) {
			t.Errorf("--benchmark-report %q also wrote %s", tc.flag, tc.absent)
		}
	}
	code, _, stderr := runCLI("run", "--base-url", url, "--model", "m", "--workload", wl, "--count", "1", "--rate", "1",
		"--output", t.TempDir(), "--benchmark-report", "csv")
	if code != 1 || !strings.Contains(stderr, `--benchmark-report: want json or yaml, got "csv", or none`) {
		t.Errorf("--benchmark-report csv: exit %d, stderr %q", code, stderr)
	}
}
