package tgi

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

// The expectations below follow TGI's quick tour (docker run --gpus all
// --shm-size 1g -p 8080:80 -v $volume:/data
// ghcr.io/huggingface/text-generation-inference:3.3.5 --model-id $model)
// and its launcher reference (--model-id, --max-input-tokens,
// --max-total-tokens, --max-concurrent-requests, --max-batch-prefill-tokens,
// --max-batch-total-tokens, --dtype float16|bfloat16, --num-shard,
// --hostname, --port, API_KEY); the router serves GET /health and
// GET /metrics.

const img = "ghcr.io/huggingface/text-generation-inference:3.3.5"

func TestRequestDefaults(t *testing.T) {
	p, err := request(img, WithModel("teknium/OpenHermes-2.5-Mistral-7B"))
	if err != nil {
		t.Fatal(err)
	}
	r := p.Request
	want := []string{"--model-id", "teknium/OpenHermes-2.5-Mistral-7B", "--hostname", "0.0.0.0", "--port", "80"}
	if r.Image != img || len(r.Entrypoint) != 0 || !reflect.DeepEqual(r.Cmd, want) {
		t.Errorf("image %q entrypoint %q cmd %q", r.Image, r.Entrypoint, r.Cmd)
	}
	if !reflect.DeepEqual(r.ExposedPorts, []string{"80/tcp"}) || len(r.Env) != 0 {
		t.Errorf("ports %q env %v", r.ExposedPorts, r.Env)
	}
	hc := p.HostConfig()
	wantBind := network.PortMap{network.MustParsePort("80/tcp"): {{HostIP: netip.MustParseAddr("127.0.0.1")}}}
	if hc.ShmSize != 1<<30 || hc.IpcMode != "" || !reflect.DeepEqual(hc.PortBindings, wantBind) {
		t.Errorf("shm %d ipc %q bindings %v", hc.ShmSize, hc.IpcMode, hc.PortBindings)
	}
	hs := r.WaitingFor.(*wait.HTTPStrategy)
	if hs.Path != "/health" || hs.Port.String() != "80/tcp" || *hs.Timeout() != 20*time.Minute {
		t.Errorf("wait %q on %s for %s", hs.Path, hs.Port, *hs.Timeout())
	}
	if p.Model != "teknium/OpenHermes-2.5-Mistral-7B" || p.MetricsPath != "/metrics" || p.VersionPath != "/info" || p.Kind != "tgi" {
		t.Errorf("plan %+v", p)
	}
}

func TestRequestAllOptions(t *testing.T) {
	volume := t.TempDir()
	p, err := request(img,
		WithModel("meta-llama/Llama-3.1-8B-Instruct"),
		WithMaxInputTokens(4000),
		WithMaxTotalTokens(4096),
		WithMaxConcurrentRequests(256),
		WithMaxBatchPrefillTokens(8192),
		WithMaxBatchTotalTokens(65536),
		WithDtype("bfloat16"),
		WithNumShard(4),
		containers.WithGPUDeviceIDs("2"),
		containers.WithModelCache(volume),
		containers.WithAPIKey("sk-tgi"),
	)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"--model-id", "meta-llama/Llama-3.1-8B-Instruct",
		"--max-input-tokens", "4000",
		"--max-total-tokens", "4096",
		"--max-concurrent-requests", "256",
		"--max-batch-prefill-tokens", "8192",
		"--max-batch-total-tokens", "65536",
		"--dtype", "bfloat16",
		"--num-shard", "4",
		"--hostname", "0.0.0.0", "--port", "80"}
	if !reflect.DeepEqual(p.Request.Cmd, want) {
		t.Errorf("cmd %q\nwant %q", p.Request.Cmd, want)
	}
	if p.Request.Env["API_KEY"] != "sk-tgi" {
		t.Errorf("env %v: the key goes in API_KEY", p.Request.Env)
	}
	if strings.Contains(strings.Join(p.Request.Cmd, " "), "sk-tgi") {
		t.Errorf("key on the command line: %q", p.Request.Cmd)
	}
	hc := p.HostConfig()
	wantGPU := []container.DeviceRequest{{Driver: "nvidia", DeviceIDs: []string{"2"}, Capabilities: [][]string{{"gpu"}}}}
	if !reflect.DeepEqual(hc.DeviceRequests, wantGPU) {
		t.Errorf("devices %+v", hc.DeviceRequests)
	}
	wantMount := []mount.Mount{{Type: mount.TypeBind, Source: volume, Target: "/data"}}
	if !reflect.DeepEqual(hc.Mounts, wantMount) {
		t.Errorf("mounts %+v", hc.Mounts)
	}
	if hs := p.Request.WaitingFor.(*wait.HTTPStrategy); hs.Headers["Authorization"] != "Bearer sk-tgi" {
		t.Errorf("wait headers %v", hs.Headers)
	}
}

func TestRequestIPCHostReplacesDefaultShm(t *testing.T) {
	p, err := request(img, WithModel("m"), containers.WithIPCHost())
	if err != nil {
		t.Fatal(err)
	}
	if hc := p.HostConfig(); hc.IpcMode != container.IPCModeHost || hc.ShmSize != 0 {
		t.Errorf("ipc %q shm %d", hc.IpcMode, hc.ShmSize)
	}
}

func TestRequestErrors(t *testing.T) {
	cases := []struct {
		opts []testcontainers.ContainerCustomizer
		want string
	}{
		{nil, "no model: pass tgi.WithModel"},
		{[]testcontainers.ContainerCustomizer{WithModel("m"), WithDtype("float32")}, `tgi.WithDtype: "float32" is not one of float16, bfloat16`},
		{[]testcontainers.ContainerCustomizer{WithModel("m"), WithNumShard(0)}, "tgi.WithNumShard: must be positive, got 0"},
		{[]testcontainers.ContainerCustomizer{WithModel("m"), WithMaxTotalTokens(-1)}, "tgi.WithMaxTotalTokens: must be positive, got -1"},
	}
	for _, c := range cases {
		_, err := request(img, c.opts...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

func TestLengthControl(t *testing.T) {
	if LengthControl() != openai.LengthUnsupported {
		t.Errorf("LengthControl() = %q", LengthControl())
	}
}
