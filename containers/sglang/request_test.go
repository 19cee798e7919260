package sglang

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

// The expectations below follow SGLang's Docker instructions (image
// lmsysorg/sglang, `python3 -m sglang.launch_server --model-path … --host
// 0.0.0.0 --port 30000`, --shm-size or --ipc=host, the Hugging Face cache at
// /root/.cache/huggingface, GPUs through the nvidia driver) and its server
// arguments (--served-model-name, --context-length, --max-running-requests,
// --max-prefill-tokens, --chunked-prefill-size, --dtype, --tp-size,
// --mem-fraction-static, --api-key, --enable-metrics); readiness is
// GET /health.

const img = "lmsysorg/sglang:v0.5.4"

func TestRequestDefaults(t *testing.T) {
	p, err := request(img, WithModel("meta-llama/Llama-3.1-8B-Instruct"))
	if err != nil {
		t.Fatal(err)
	}
	r := p.Request
	want := []string{"python3", "-m", "sglang.launch_server",
		"--model-path", "meta-llama/Llama-3.1-8B-Instruct", "--enable-metrics",
		"--host", "0.0.0.0", "--port", "30000"}
	if r.Image != img || len(r.Entrypoint) != 0 || !reflect.DeepEqual(r.Cmd, want) {
		t.Errorf("image %q entrypoint %q cmd %q\nwant cmd %q", r.Image, r.Entrypoint, r.Cmd, want)
	}
	if !reflect.DeepEqual(r.ExposedPorts, []string{"30000/tcp"}) {
		t.Errorf("ports %q", r.ExposedPorts)
	}
	hc := p.HostConfig()
	wantBind := network.PortMap{network.MustParsePort("30000/tcp"): {{HostIP: netip.MustParseAddr("127.0.0.1")}}}
	if hc.IpcMode != container.IPCModeHost || !reflect.DeepEqual(hc.PortBindings, wantBind) {
		t.Errorf("ipc %q bindings %v", hc.IpcMode, hc.PortBindings)
	}
	hs := r.WaitingFor.(*wait.HTTPStrategy)
	if hs.Path != "/health" || hs.Port.String() != "30000/tcp" || *hs.Timeout() != 20*time.Minute {
		t.Errorf("wait %q on %s for %s", hs.Path, hs.Port, *hs.Timeout())
	}
	if p.Model != "meta-llama/Llama-3.1-8B-Instruct" || p.MetricsPath != "/metrics" || p.Kind != "sglang" {
		t.Errorf("plan %+v", p)
	}
}

func TestRequestAllOptions(t *testing.T) {
	cache := t.TempDir()
	p, err := request(img,
		WithModel("Qwen/Qwen3-8B"),
		WithServedModelName("qwen"),
		WithContextLength(8192),
		WithMaxRunningRequests(64),
		WithMaxPrefillTokens(16384),
		WithChunkedPrefillSize(4096),
		WithDtype("bfloat16"),
		WithTensorParallelSize(2),
		WithMemFractionStatic(0.8),
		containers.WithGPUs(),
		containers.WithShmSize(32<<30),
		containers.WithIPCHost(),
		containers.WithModelCache(cache),
		containers.WithAPIKey("sk-sg"),
	)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"python3", "-m", "sglang.launch_server",
		"--model-path", "Qwen/Qwen3-8B",
		"--served-model-name", "qwen",
		"--context-length", "8192",
		"--max-running-requests", "64",
		"--max-prefill-tokens", "16384",
		"--chunked-prefill-size", "4096",
		"--dtype", "bfloat16",
		"--tp-size", "2",
		"--mem-fraction-static", "0.8",
		"--enable-metrics",
		"--host", "0.0.0.0", "--port", "30000",
		"--api-key", "sk-sg"}
	if !reflect.DeepEqual(p.Request.Cmd, want) {
		t.Errorf("cmd %q\nwant %q", p.Request.Cmd, want)
	}
	hc := p.HostConfig()
	wantGPU := []container.DeviceRequest{{Driver: "nvidia", Count: -1, Capabilities: [][]string{{"gpu"}}}}
	if !reflect.DeepEqual(hc.DeviceRequests, wantGPU) {
		t.Errorf("devices %+v", hc.DeviceRequests)
	}
	// Both given, as in SGLang's compose file: shm size and host IPC.
	if hc.ShmSize != 32<<30 || hc.IpcMode != container.IPCModeHost {
		t.Errorf("shm %d ipc %q", hc.ShmSize, hc.IpcMode)
	}
	wantMount := []mount.Mount{{Type: mount.TypeBind, Source: cache, Target: "/root/.cache/huggingface"}}
	if !reflect.DeepEqual(hc.Mounts, wantMount) {
		t.Errorf("mounts %+v", hc.Mounts)
	}
	if strings.Contains(strings.Join(p.Args, " "), "sk-sg") || p.Model != "qwen" {
		t.Errorf("args %q model %q", p.Args, p.Model)
	}
}

func TestRequestErrors(t *testing.T) {
	cases := []struct {
		opts []testcontainers.ContainerCustomizer
		want string
	}{
		{nil, "no model: pass sglang.WithModel"},
		{[]testcontainers.ContainerCustomizer{WithModel("m"), WithChunkedPrefillSize(0)}, "sglang.WithChunkedPrefillSize: must be positive or -1, got 0"},
		{[]testcontainers.ContainerCustomizer{WithModel("m"), WithDtype("int8")}, `sglang.WithDtype: "int8"`},
		{[]testcontainers.ContainerCustomizer{WithModel("m"), WithMemFractionStatic(0)}, "sglang.WithMemFractionStatic: 0 is not in (0, 1]"},
		{[]testcontainers.ContainerCustomizer{WithModel("m"), WithTensorParallelSize(-2)}, "sglang.WithTensorParallelSize: must be positive, got -2"},
	}
	for _, c := range cases {
		_, err := request(img, c.opts...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

func TestChunkedPrefillCanBeDisabled(t *testing.T) {
	p, err := request(img, WithModel("m"), WithChunkedPrefillSize(-1))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(p.Request.Cmd, " "), "--chunked-prefill-size -1") {
		t.Errorf("cmd %q", p.Request.Cmd)
	}
}

func TestLengthControl(t *testing.T) {
	if LengthControl() != openai.LengthIgnoreEOSMinTokens {
		t.Errorf("LengthControl() = %q", LengthControl())
	}
}
