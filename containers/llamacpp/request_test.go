package llamacpp

import (
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/openai"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/mount"
	"github.com/moby/moby/api/types/network"
	"github.com/servebench/servebench/containers"
	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"
)

// The expectations below follow llama.cpp server's README: the Docker
// example (ghcr.io/ggml-org/llama.cpp:server -m model.gguf -c 512 --host
// 0.0.0.0 --port 8080; server-cuda with --gpus all and --n-gpu-layers 99),
// its flags (--model, --hf-repo, --alias, --ctx-size, --parallel,
// --batch-size, --n-gpu-layers, --metrics, LLAMA_API_KEY, LLAMA_CACHE) and
// GET /health (503 while loading, 200 when ready).

const img = "ghcr.io/ggml-org/llama.cpp:server"

func TestRequestDefaults(t *testing.T) {
	p, err := request(img, WithModelFile("/models/7B/ggml-model.gguf"), WithContextSize(512))
	if err != nil {
		t.Fatal(err)
	}
	r := p.Request
	want := []string{"--model", "/models/7B/ggml-model.gguf", "--alias", "/models/7B/ggml-model.gguf",
		"--ctx-size", "512", "--metrics", "--host", "0.0.0.0", "--port", "8080"}
	if r.Image != img || len(r.Entrypoint) != 0 || !reflect.DeepEqual(r.Cmd, want) {
		t.Errorf("image %q entrypoint %q cmd %q\nwant %q", r.Image, r.Entrypoint, r.Cmd, want)
	}
	if !reflect.DeepEqual(r.Env, map[string]string{"LLAMA_CACHE": "/root/.cache/llama.cpp"}) {
		t.Errorf("env %v", r.Env)
	}
	if !reflect.DeepEqual(r.ExposedPorts, []string{"8080/tcp"}) {
		t.Errorf("ports %q", r.ExposedPorts)
	}
	hc := p.HostConfig()
	wantBind := network.PortMap{network.MustParsePort("8080/tcp"): {{HostIP: netip.MustParseAddr("127.0.0.1")}}}
	if hc.IpcMode != "" || hc.ShmSize != 0 || !reflect.DeepEqual(hc.PortBindings, wantBind) || hc.DeviceRequests != nil {
		t.Errorf("host config %+v", hc)
	}
	hs := r.WaitingFor.(*wait.HTTPStrategy)
	if hs.Path != "/health" || hs.Port.String() != "8080/tcp" || *hs.Timeout() != 20*time.Minute {
		t.Errorf("wait %q on %s for %s", hs.Path, hs.Port, *hs.Timeout())
	}
	if p.Model != "/models/7B/ggml-model.gguf" || p.MetricsPath != "/metrics" || p.Kind != "llamacpp" {
		t.Errorf("plan %+v", p)
	}
}

func TestRequestCUDAWithHFRepo(t *testing.T) {
	cache := t.TempDir()
	p, err := request(Image+":server-cuda",
		WithHFRepo("ggml-org/gemma-3-1b-it-GGUF"),
		WithAlias("gemma"),
		WithParallel(8),
		WithBatchSize(2048),
		containers.WithGPUs(),
		containers.WithModelCache(cache),
		containers.WithAPIKey("sk-llama"),
	)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"--hf-repo", "ggml-org/gemma-3-1b-it-GGUF", "--alias", "gemma",
		"--parallel", "8", "--batch-size", "2048", "--n-gpu-layers", "99", "--metrics",
		"--host", "0.0.0.0", "--port", "8080"}
	if !reflect.DeepEqual(p.Request.Cmd, want) {
		t.Errorf("cmd %q\nwant %q", p.Request.Cmd, want)
	}
	wantEnv := map[string]string{"LLAMA_CACHE": "/root/.cache/llama.cpp", "LLAMA_API_KEY": "sk-llama"}
	if !reflect.DeepEqual(p.Request.Env, wantEnv) {
		t.Errorf("env %v", p.Request.Env)
	}
	hc := p.HostConfig()
	wantGPU := []container.DeviceRequest{{Driver: "nvidia", Count: -1, Capabilities: [][]string{{"gpu"}}}}
	if !reflect.DeepEqual(hc.DeviceRequests, wantGPU) {
		t.Errorf("devices %+v", hc.DeviceRequests)
	}
	wantMount := []mount.Mount{{Type: mount.TypeBind, Source: cache, Target: "/root/.cache/llama.cpp"}}
	if !reflect.DeepEqual(hc.Mounts, wantMount) {
		t.Errorf("mounts %+v", hc.Mounts)
	}
	if p.Model != "gemma" {
		t.Errorf("model %q", p.Model)
	}
}

func TestRequestExplicitGPULayers(t *testing.T) {
	p, err := request(img, WithModelFile("/m.gguf"), WithGPULayers("all"), containers.WithGPUs())
	if err != nil {
		t.Fatal(err)
	}
	cmd := strings.Join(p.Request.Cmd, " ")
	if !strings.Contains(cmd, "--n-gpu-layers all") || strings.Contains(cmd, "--n-gpu-layers 99") {
		t.Errorf("cmd %q", cmd)
	}
}

func TestRequestErrors(t *testing.T) {
	cases := []struct {
		opts []testcontainers.ContainerCustomizer
		want string
	}{
		{nil, "no model: pass llamacpp.WithModelFile or llamacpp.WithHFRepo"},
		{[]testcontainers.ContainerCustomizer{WithModelFile("/a.gguf"), WithHFRepo("u/m")}, "both given"},
		{[]testcontainers.ContainerCustomizer{WithModelFile("/a.gguf"), WithGPULayers("most")}, `llamacpp.WithGPULayers: want a non-negative number, "auto" or "all", got "most"`},
		{[]testcontainers.ContainerCustomizer{WithModelFile("/a.gguf"), WithParallel(0)}, "llamacpp.WithParallel: must be positive, got 0"},
	}
	for _, c := range cases {
		_, err := request(img, c.opts...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

func TestLengthControl(t *testing.T) {
	if LengthControl() != openai.LengthIgnoreEOS {
		t.Errorf("LengthControl() = %q", LengthControl())
	}
}
