package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run on the messages endpoint against the simulated engine ends with
// exit 0 and the metrics of chat: TTFT and TPOT over every request, the
// cached prompt tokens counted back into the prompt.
func TestMessagesEndpointRun(t *testing.T) {
	url := startSim(t, nil)
	w := writeWorkload(t, `{"messages":[{"role":"system","content":"be brief"},{"role":"user","content":"tell me a long story"}],"max_tokens":8,"extra":{"sim_response":"one two three four five six seven eight nine"}}`+"\n")
	out := filepath.Join(t.TempDir(), "run")
	t.Setenv("SB_TEST_ANTHROPIC_KEY", "sk-ant-test-0042")
	code, stdout, stderr := runCLI("run", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "messages", "--workload", w,
		"--api-key-env", "SB_TEST_ANTHROPIC_KEY", "--arrival", "constant", "--rate", "20", "--count", "4",
		"--schedule-lag-tolerance", "5s", "--output", out, "--no-progress")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Endpoint    string `json:"endpoint"`
		Successes   int    `json:"protocol_successes"`
		Percentiles map[string]struct {
			N   int      `json:"n"`
			P50 *float64 `json:"p50"`
		} `json:"percentiles"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	// Every request is answered over Messages; whether it met the default
	// SLOs depends on the machine's speed, which is not this test's subject.
	if rep.Endpoint != "messages" || rep.Successes != 4 {
		t.Fatalf("endpoint %q protocol successes %d", rep.Endpoint, rep.Successes)
	}
	for _, m := range []string{"ttft_ms", "tpot_ms", "e2e_ms"} {
		if d := rep.Percentiles[m]; d.N != 4 || d.P50 == nil || *d.P50 <= 0 {
			t.Errorf("%s: n %d p50 %v", m, d.N, d.P50)
		}
	}
	for _, s := range []string{stdout, stderr, string(data)} {
		if strings.Contains(s, "sk-ant-test-0042") {
			t.Fatalf("the key is written: %.300s", s)
		}
	}
}
