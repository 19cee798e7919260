package standine2e_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/internal/module"
	"github.com/servebench/servebench/containers/llamacpp"
	"github.com/servebench/servebench/containers/sglang"
	"github.com/servebench/servebench/containers/tgi"
	"github.com/servebench/servebench/containers/vllm"
)

// apiKey is the key every engine is started with.
const apiKey = "sk-standin"

// engineCase is one engine module with every one of its options set, and
// what the stand-in must then show.
type engineCase struct {
	kind       string
	executable string
	opts       []testcontainers.ContainerCustomizer
	container  func(ctx context.Context, img string, opts ...testcontainers.ContainerCustomizer) (containers.Engine, testcontainers.Container, error)
	process    func(ctx context.Context, opts ...testcontainers.ContainerCustomizer) (*module.Process, error)
	model      string
	version    string
	metric     string
	logLine    string
}

// engineCases uses each module's full option set, so that a flag outside
// the engine's documented list makes the stand-in refuse to start.
func engineCases() []engineCase {
	return []engineCase{
		{
			kind: "vllm", executable: "vllm",
			opts: []testcontainers.ContainerCustomizer{
				vllm.WithModel("Qwen/Qwen3-0.6B"), vllm.WithServedModelName("qwen"), vllm.WithMaxModelLen(4096),
				vllm.WithMaxNumSeqs(8), vllm.WithMaxNumBatchedTokens(2048), vllm.WithDtype("bfloat16"),
				vllm.WithTensorParallelSize(1), vllm.WithGPUMemoryUtilization(0.5),
			},
			container: func(ctx context.Context, img string, opts ...testcontainers.ContainerCustomizer) (containers.Engine, testcontainers.Container, error) {
				c, err := vllm.Run(ctx, img, opts...)
				if c == nil {
					return nil, nil, err
				}
				return c, c, err
			},
			process: vllm.RunProcess,
			model:   "qwen", version: "0.8.5", metric: "vllm:num_requests_running", logLine: "Uvicorn running on",
		},
		{
			kind: "sglang", executable: "python3",
			opts: []testcontainers.ContainerCustomizer{
				sglang.WithModel("Qwen/Qwen3-0.6B"), sglang.WithServedModelName("qwen"), sglang.WithContextLength(4096),
				sglang.WithMaxRunningRequests(8), sglang.WithMaxPrefillTokens(2048), sglang.WithChunkedPrefillSize(-1),
				sglang.WithDtype("bfloat16"), sglang.WithTensorParallelSize(1), sglang.WithMemFractionStatic(0.5),
			},
			container: func(ctx context.Context, img string, opts ...testcontainers.ContainerCustomizer) (containers.Engine, testcontainers.Container, error) {
				c, err := sglang.Run(ctx, img, opts...)
				if c == nil {
					return nil, nil, err
				}
				return c, c, err
			},
			process: sglang.RunProcess,
			model:   "qwen", metric: "sglang:num_running_reqs", logLine: "Uvicorn running on",
		},
		{
			kind: "tgi", executable: "text-generation-launcher",
			opts: []testcontainers.ContainerCustomizer{
				tgi.WithModel("Qwen/Qwen3-0.6B"), tgi.WithMaxInputTokens(2048), tgi.WithMaxTotalTokens(4096),
				tgi.WithMaxConcurrentRequests(16), tgi.WithMaxBatchPrefillTokens(2048), tgi.WithMaxBatchTotalTokens(8192),
				tgi.WithDtype("bfloat16"), tgi.WithNumShard(1),
			},
			container: func(ctx context.Context, img string, opts ...testcontainers.ContainerCustomizer) (containers.Engine, testcontainers.Container, error) {
				c, err := tgi.Run(ctx, img, opts...)
				if c == nil {
					return nil, nil, err
				}
				return c, c, err
			},
			process: tgi.RunProcess,
			model:   "Qwen/Qwen3-0.6B", version: "3.3.5", metric: "tgi_queue_size", logLine: "Connected on",
		},
		{
			kind: "llamacpp", executable: "llama-server",
			opts: []testcontainers.ContainerCustomizer{
				llamacpp.WithModelFile("/models/tiny.gguf"), llamacpp.WithAlias("tiny"), llamacpp.WithContextSize(4096),
				llamacpp.WithParallel(4), llamacpp.WithBatchSize(512), llamacpp.WithGPULayers("0"),
			},
			container: func(ctx context.Context, img string, opts ...testcontainers.ContainerCustomizer) (containers.Engine, testcontainers.Container, error) {
				c, err := llamacpp.Run(ctx, img, opts...)
				if c == nil {
					return nil, nil, err
				}
				return c, c, err
			},
			process: llamacpp.RunProcess,
			model:   "tiny", metric: "llamacpp:requests_processing", logLine: "server is listening on",
		},
	}
}

// checkEngine exercises a started engine as a user would: model, identity,
// a streamed completion with and without the key, metrics, logs.
func checkEngine(t *testing.T, ctx context.Context, c engineCase, eng containers.Engine) {
	t.Helper()
	if eng.Kind() != c.kind || eng.Model() != c.model {
		t.Errorf("kind %q model %q, want %q %q", eng.Kind(), eng.Model(), c.kind, c.model)
	}
	id := eng.Identity()
	if id.Kind != c.kind || id.Model != c.model || id.Version != c.version {
		t.Errorf("identity %+v, want kind %q model %q version %q", id, c.kind, c.model, c.version)
	}
	if strings.Contains(strings.Join(id.Args, " ")+strings.Join(eng.Command(), " "), apiKey) {
		t.Errorf("the API key shows in the identity or command: %q %q", id.Args, eng.Command())
	}
	if eng.ColdStart() <= 0 {
		t.Errorf("cold start %s", eng.ColdStart())
	}

	events, done := stream(t, ctx, eng.BaseURL(), c.model, apiKey)
	if events != 4 || !done {
		t.Errorf("stream: %d content events, [DONE] %v; want 4 and true", events, done)
	}
	if status := post(t, ctx, eng.BaseURL(), c.model, ""); status != http.StatusUnauthorized {
		t.Errorf("a request without the key got %d, want 401", status)
	}

	body := get(t, ctx, eng.MetricsURL())
	if !strings.Contains(body, c.metric+" ") && !strings.Contains(body, c.metric+"{") {
		t.Errorf("metrics at %s lack %s:\n%s", eng.MetricsURL(), c.metric, body)
	}
	rc, err := eng.Logs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	logs, _ := io.ReadAll(rc)
	rc.Close()
	if !strings.Contains(string(logs), c.logLine) {
		t.Errorf("logs lack %q:\n%s", c.logLine, logs)
	}
}

// requestBody is a streamed completion of exactly 4 tokens.
func requestBody(model string) []byte {
	b, _ := json.Marshal(map[string]any{"model": model, "prompt": "The harbour at dawn", "max_tokens": 4,
		"stream": true, "ignore_eos": true})
	return b
}

// stream posts a streamed completion and counts its content events.
func stream(t *testing.T, ctx context.Context, baseURL, model, key string) (events int, done bool) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, baseURL+"/v1/completions", bytes.NewReader(requestBody(model)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("stream: %s %q: %s", resp.Status, resp.Header.Get("Content-Type"), b)
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		switch {
		case !ok:
		case data == "[DONE]":
			done = true
		default:
			var chunk struct {
				Choices []struct {
					Text string `json:"text"`
				} `json:"choices"`
			}
			if err := json.Unmarshal([]byte(data), &chunk); err != nil {
				t.Fatalf("event %q: %v", data, err)
			}
			if len(chunk.Choices) == 1 {
				events++
			}
		}
	}
	return events, done
}

// post sends the completion request with key (none when empty) and
// returns the status.
func post(t *testing.T, ctx context.Context, baseURL, model, key string) int {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, baseURL+"/v1/completions", bytes.NewReader(requestBody(model)))
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// get returns the body of a GET that must answer 200.
func get(t *testing.T, ctx context.Context, url string) string {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s: %s", url, resp.Status, b)
	}
	return string(b)
}
