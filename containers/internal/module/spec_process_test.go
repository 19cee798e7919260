package module

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/containers"
)

// processSpec is a vLLM-like engine spec.
func processSpec() Spec {
	return Spec{
		Kind: "eng", Process: []string{"eng", "serve"}, Args: []string{"--model", "m"},
		Env: map[string]string{"CONTAINER_ONLY": "1"}, Port: 8000, CacheEnv: "HF_HOME",
		Listen: func(host string, port int) ([]string, map[string]string) {
			return []string{"--host", host, "--port", strconv.Itoa(port)}, nil
		},
		APIKey:     func(key string) ([]string, map[string]string) { return []string{"--api-key", key}, nil },
		HealthPath: "/health", MetricsPath: "/metrics", VersionPath: "/version", Model: "m",
		StartupTimeout: 20 * time.Minute, IPCHost: true,
	}
}

func TestProcessPlanGivesTheContainersArgumentsToTheProcess(t *testing.T) {
	var s containers.Settings
	for _, o := range []containers.Option{containers.WithAPIKey("k"), containers.WithExtraArgs("--x"), containers.WithGPUDeviceIDs("1", "3"),
		containers.WithModelCache("/cache"), containers.WithEnv(map[string]string{"A": "b"}), containers.WithExecutable("/venv/bin/eng"),
		containers.WithStartupTimeout(time.Minute)} {
		if err := o(&s); err != nil {
			t.Fatal(err)
		}
	}
	ps, err := ProcessPlan(processSpec(), s)
	if err != nil {
		t.Fatal(err)
	}
	if ps.Binary != "/venv/bin/eng" {
		t.Errorf("binary %q", ps.Binary)
	}
	wantArgs := []string{"serve", "--model", "m", "--api-key", "k", "--x"}
	if !reflect.DeepEqual(ps.Args, wantArgs) {
		t.Errorf("args %q, want %q", ps.Args, wantArgs)
	}
	wantEnv := map[string]string{"CUDA_VISIBLE_DEVICES": "1,3", "HF_HOME": "/cache", "A": "b"}
	if !reflect.DeepEqual(ps.Env, wantEnv) {
		t.Errorf("env %v, want %v (the container's own environment stays out)", ps.Env, wantEnv)
	}
	if ps.APIKey != "k" || ps.StartupTimeout != time.Minute || ps.Model != "m" || ps.VersionPath != "/version" || ps.HealthPath != "/health" {
		t.Errorf("plan %+v", ps)
	}
	if args, _ := ps.Listen("127.0.0.1", 4321); !reflect.DeepEqual(args, []string{"--host", "127.0.0.1", "--port", "4321"}) {
		t.Errorf("listen %q", args)
	}
}

func TestProcessPlanDefaultsAndRefusals(t *testing.T) {
	ps, err := ProcessPlan(processSpec(), containers.Settings{GPUs: &containers.GPURequest{All: true}})
	if err != nil {
		t.Fatal(err)
	}
	if ps.Binary != "eng" || ps.StartupTimeout != 20*time.Minute || len(ps.Env) != 0 {
		t.Errorf("binary %q timeout %s env %v", ps.Binary, ps.StartupTimeout, ps.Env)
	}
	noProcess := processSpec()
	noProcess.Process = nil
	noCache := processSpec()
	noCache.CacheEnv = ""
	for _, c := range []struct {
		spec Spec
		s    containers.Settings
		want string
	}{
		{noProcess, containers.Settings{}, "eng cannot run as a local process"},
		{processSpec(), containers.Settings{ShmSize: 1 << 30}, "WithShmSize/WithIPCHost apply to containers"},
		{processSpec(), containers.Settings{IPCHost: true}, "WithShmSize/WithIPCHost apply to containers"},
		{processSpec(), containers.Settings{HostNetwork: true}, "WithHostNetwork applies to containers"},
		{noCache, containers.Settings{ModelCacheDir: "/c"}, "WithModelCache: eng has no model cache variable"},
	} {
		if _, err := ProcessPlan(c.spec, c.s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}
