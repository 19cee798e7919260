package vllm

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

// The expectations below follow vLLM's "Using Docker" guide (image
// vllm/vllm-openai, port 8000, --ipc=host or --shm-size, the Hugging Face
// cache at /root/.cache/huggingface, engine arguments after the image) and
// its engine-argument reference (--model, --served-model-name,
// --max-model-len, --max-num-seqs, --max-num-batched-tokens, --dtype,
// --tensor-parallel-size, --gpu-memory-utilization, --api-key, --host,
// --port); readiness is GET /health, metrics GET /metrics.

const img = "vllm/vllm-openai:v0.11.0"

func TestRequestDefaults(t *testing.T) {
	p, err := request(img, WithModel("Qwen/Qwen3-0.6B"))
	if err != nil {
		t.Fatal(err)
	}
	r := p.Request
	if r.Image != img {
		t.Errorf("image %q", r.Image)
	}
	if len(r.Entrypoint) != 0 {
		t.Errorf("entrypoint %q; the image's own (vllm serve) must run", r.Entrypoint)
	}
	want := []string{"--model", "Qwen/Qwen3-0.6B", "--host", "0.0.0.0", "--port", "8000"}
	if !reflect.DeepEqual(r.Cmd, want) {
		t.Errorf("cmd %q, want %q", r.Cmd, want)
	}
	if len(r.Env) != 0 {
		t.Errorf("env %v", r.Env)
	}
	if !reflect.DeepEqual(r.ExposedPorts, []string{"8000/tcp"}) {
		t.Errorf("ports %q", r.ExposedPorts)
	}
	hc := p.HostConfig()
	if hc.IpcMode != container.IPCModeHost {
		t.Errorf("ipc %q, want host", hc.IpcMode)
	}
	wantBind := network.PortMap{network.MustParsePort("8000/tcp"): {{HostIP: netip.MustParseAddr("127.0.0.1")}}}
	if !reflect.DeepEqual(hc.PortBindings, wantBind) {
		t.Errorf("bindings %v", hc.PortBindings)
	}
	if hc.DeviceRequests != nil || hc.Mounts != nil {
		t.Errorf("devices %v mounts %v", hc.DeviceRequests, hc.Mounts)
	}
	hs := r.WaitingFor.(*wait.HTTPStrategy)
	if hs.Path != "/health" || hs.Port.String() != "8000/tcp" || *hs.Timeout() != 20*time.Minute {
		t.Errorf("wait %q on %s for %s", hs.Path, hs.Port, *hs.Timeout())
	}
	if p.Kind != "vllm" || p.Model != "Qwen/Qwen3-0.6B" || p.MetricsPath != "/metrics" || p.VersionPath != "/version" || p.Image != img {
		t.Errorf("plan %+v", p)
	}
}

func TestRequestAllOptions(t *testing.T) {
	cache := t.TempDir()
	p, err := request(img,
		WithModel("meta-llama/Llama-3.1-8B-Instruct"),
		WithServedModelName("llama"),
		WithMaxModelLen(8192),
		WithMaxNumSeqs(128),
		WithMaxNumBatchedTokens(4096),
		WithDtype("bfloat16"),
		WithTensorParallelSize(2),
		WithGPUMemoryUtilization(0.85),
		containers.WithGPUDeviceIDs("0", "1"),
		containers.WithShmSize(16<<30),
		containers.WithModelCache(cache),
		containers.WithAPIKey("sk-test"),
		containers.WithEnv(map[string]string{"HF_TOKEN": "hf_x"}),
		containers.WithExtraArgs("--enable-prefix-caching"),
		containers.WithStartupTimeout(30*time.Minute),
	)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"--model", "meta-llama/Llama-3.1-8B-Instruct",
		"--served-model-name", "llama",
		"--max-model-len", "8192",
		"--max-num-seqs", "128",
		"--max-num-batched-tokens", "4096",
		"--dtype", "bfloat16",
		"--tensor-parallel-size", "2",
		"--gpu-memory-utilization", "0.85",
		"--host", "0.0.0.0", "--port", "8000",
		"--api-key", "sk-test",
		"--enable-prefix-caching",
	}
	if !reflect.DeepEqual(p.Request.Cmd, want) {
		t.Errorf("cmd %q\nwant %q", p.Request.Cmd, want)
	}
	if strings.Contains(strings.Join(p.Args, " "), "sk-test") {
		t.Errorf("identity args show the key: %q", p.Args)
	}
	if p.Request.Env["HF_TOKEN"] != "hf_x" {
		t.Errorf("env %v", p.Request.Env)
	}
	hc := p.HostConfig()
	wantGPU := []container.DeviceRequest{{Driver: "nvidia", DeviceIDs: []string{"0", "1"}, Capabilities: [][]string{{"gpu"}}}}
	if !reflect.DeepEqual(hc.DeviceRequests, wantGPU) {
		t.Errorf("devices %+v", hc.DeviceRequests)
	}
	if hc.ShmSize != 16<<30 || hc.IpcMode != "" {
		t.Errorf("shm %d ipc %q: a sized /dev/shm replaces host IPC", hc.ShmSize, hc.IpcMode)
	}
	wantMount := []mount.Mount{{Type: mount.TypeBind, Source: cache, Target: "/root/.cache/huggingface"}}
	if !reflect.DeepEqual(hc.Mounts, wantMount) {
		t.Errorf("mounts %+v", hc.Mounts)
	}
	hs := p.Request.WaitingFor.(*wait.HTTPStrategy)
	if *hs.Timeout() != 30*time.Minute || hs.Headers["Authorization"] != "Bearer sk-test" {
		t.Errorf("wait timeout %s headers %v", *hs.Timeout(), hs.Headers)
	}
	if p.Model != "llama" || !p.GPU || p.APIKey != "sk-test" {
		t.Errorf("plan model %q gpu %v key %q", p.Model, p.GPU, p.APIKey)
	}
}

func TestRequestHostNetwork(t *testing.T) {
	p, err := request(img, WithModel("m"), containers.WithHostNetwork(), containers.WithGPUs())
	if err != nil {
		t.Fatal(err)
	}
	port := strings.TrimSuffix(p.Port, "/tcp")
	want := []string{"--model", "m", "--host", "127.0.0.1", "--port", port}
	if !reflect.DeepEqual(p.Request.Cmd, want) {
		t.Errorf("cmd %q", p.Request.Cmd)
	}
	hc := p.HostConfig()
	if hc.NetworkMode != "host" || hc.PortBindings != nil {
		t.Errorf("network %q bindings %v", hc.NetworkMode, hc.PortBindings)
	}
	wantGPU := []container.DeviceRequest{{Driver: "nvidia", Count: -1, Capabilities: [][]string{{"gpu"}}}}
	if !reflect.DeepEqual(hc.DeviceRequests, wantGPU) {
		t.Errorf("devices %+v", hc.DeviceRequests)
	}
}

func TestRequestTestcontainersOptionsComeLast(t *testing.T) {
	p, err := request(img, WithModel("m"),
		testcontainers.WithEntrypoint("python3", "-m", "vllm.entrypoints.openai.api_server"),
		testcontainers.WithEnv(map[string]string{"VLLM_LOGGING_LEVEL": "DEBUG"}))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.Request.Entrypoint, []string{"python3", "-m", "vllm.entrypoints.openai.api_server"}) {
		t.Errorf("entrypoint %q", p.Request.Entrypoint)
	}
	if p.Request.Env["VLLM_LOGGING_LEVEL"] != "DEBUG" {
		t.Errorf("env %v", p.Request.Env)
	}
}

func TestRequestErrors(t *testing.T) {
	cases := []struct {
		opts []testcontainers.ContainerCustomizer
		want string
	}{
		{nil, "no model: pass vllm.WithModel"},
		{[]testcontainers.ContainerCustomizer{WithModel("")}, "vllm.WithModel: empty value for --model"},
		{[]testcontainers.ContainerCustomizer{WithModel("m"), WithDtype("fp8")}, `vllm.WithDtype: "fp8" is not one of`},
		{[]testcontainers.ContainerCustomizer{WithModel("m"), WithMaxNumSeqs(0)}, "vllm.WithMaxNumSeqs: must be positive, got 0"},
		{[]testcontainers.ContainerCustomizer{WithModel("m"), WithGPUMemoryUtilization(1.5)}, "vllm.WithGPUMemoryUtilization: 1.5 is not in (0, 1]"},
		{[]testcontainers.ContainerCustomizer{WithModel("m"), containers.WithShmSize(-1)}, "WithShmSize: size must be positive"},
	}
	for _, c := range cases {
		_, err := request(img, c.opts...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

func TestLengthControl(t *testing.T) {
	if LengthControl() != openai.LengthIgnoreEOSMinTokens {
		t.Errorf("LengthControl() = %q", LengthControl())
	}
}
