package module

import (
	"net/netip"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/internal/redact"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/mount"
	"github.com/moby/moby/api/types/network"
	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"
)

// testSpec is a small engine spec in the shape of a real one.
func testSpec() Spec {
	return Spec{
		Kind:  "fake",
		Image: "example/fake:1",
		Args:  []string{"--model", "m"},
		Env:   map[string]string{"A": "spec", "B": "spec"},
		Port:  9000,
		Listen: func(host string, port int) ([]string, map[string]string) {
			return []string{"--host", host, "--port", strconv.Itoa(port)}, nil
		},
		APIKey: func(key string) ([]string, map[string]string) {
			return []string{"--api-key", key}, nil
		},
		HealthPath:     "/health",
		MetricsPath:    "/metrics",
		CachePath:      "/cache",
		Model:          "m",
		StartupTimeout: 3 * time.Minute,
	}
}

func httpWait(t *testing.T, p Plan) *wait.HTTPStrategy {
	t.Helper()
	hs, ok := p.Request.WaitingFor.(*wait.HTTPStrategy)
	if !ok {
		t.Fatalf("wait strategy is %T, want *wait.HTTPStrategy", p.Request.WaitingFor)
	}
	return hs
}

func TestAssembleDefaultsPublishOnLoopback(t *testing.T) {
	p, err := Assemble(testSpec(), containers.Settings{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	req := p.Request
	if req.Image != "example/fake:1" || !req.Started {
		t.Errorf("image %q started %v", req.Image, req.Started)
	}
	wantCmd := []string{"--model", "m", "--host", "0.0.0.0", "--port", "9000"}
	if !reflect.DeepEqual(req.Cmd, wantCmd) {
		t.Errorf("cmd = %q, want %q", req.Cmd, wantCmd)
	}
	if !reflect.DeepEqual(req.ExposedPorts, []string{"9000/tcp"}) {
		t.Errorf("exposed ports = %q", req.ExposedPorts)
	}
	if req.Labels[LabelEngine] != "fake" {
		t.Errorf("labels = %v", req.Labels)
	}
	hc := p.HostConfig()
	want := network.PortMap{network.MustParsePort("9000/tcp"): {{HostIP: netip.MustParseAddr("127.0.0.1")}}}
	if !reflect.DeepEqual(hc.PortBindings, want) {
		t.Errorf("port bindings = %v, want %v", hc.PortBindings, want)
	}
	if hc.NetworkMode != "" || hc.IpcMode != "" || hc.ShmSize != 0 || hc.DeviceRequests != nil || hc.Mounts != nil {
		t.Errorf("unexpected host config %+v", hc)
	}
	hs := httpWait(t, p)
	if hs.Path != "/health" || hs.Port.String() != "9000/tcp" || *hs.Timeout() != 3*time.Minute {
		t.Errorf("wait: path %q port %s timeout %s", hs.Path, hs.Port, *hs.Timeout())
	}
	if p.Port != "9000/tcp" || p.Model != "m" || p.MetricsPath != "/metrics" || p.GPU || p.HostNetwork {
		t.Errorf("plan = %+v", p)
	}
	if p.LogBufferBytes != containers.DefaultLogBufferBytes {
		t.Errorf("log buffer = %d", p.LogBufferBytes)
	}
}

func TestAssembleSharedSettings(t *testing.T) {
	dir := t.TempDir()
	s := containers.Settings{}
	opts := []testcontainers.ContainerCustomizer{
		containers.WithGPUDeviceIDs("0", "3"),
		containers.WithShmSize(8 << 30),
		containers.WithModelCache(dir),
		containers.WithAPIKey("sk-secret"),
		containers.WithExtraArgs("--x", "1"),
		containers.WithEnv(map[string]string{"B": "user", "C": "user"}),
		containers.WithStartupTimeout(42 * time.Minute),
		containers.WithLogBuffer(1000),
	}
	if err := ApplySettings(&s, opts); err != nil {
		t.Fatal(err)
	}
	p, err := Assemble(testSpec(), s, opts)
	if err != nil {
		t.Fatal(err)
	}
	wantCmd := []string{"--model", "m", "--host", "0.0.0.0", "--port", "9000", "--api-key", "sk-secret", "--x", "1"}
	if !reflect.DeepEqual(p.Request.Cmd, wantCmd) {
		t.Errorf("cmd = %q, want %q", p.Request.Cmd, wantCmd)
	}
	wantArgs := []string{"--model", "m", "--host", "0.0.0.0", "--port", "9000", "--api-key", redact.Marker, "--x", "1"}
	if !reflect.DeepEqual(p.Args, wantArgs) {
		t.Errorf("plan args = %q, want %q (key redacted)", p.Args, wantArgs)
	}
	wantEnv := map[string]string{"A": "spec", "B": "user", "C": "user"}
	if !reflect.DeepEqual(p.Request.Env, wantEnv) {
		t.Errorf("env = %v, want %v", p.Request.Env, wantEnv)
	}
	hc := p.HostConfig()
	wantGPU := []container.DeviceRequest{{Driver: "nvidia", DeviceIDs: []string{"0", "3"}, Capabilities: [][]string{{"gpu"}}}}
	if !reflect.DeepEqual(hc.DeviceRequests, wantGPU) {
		t.Errorf("device requests = %+v, want %+v", hc.DeviceRequests, wantGPU)
	}
	if hc.ShmSize != 8<<30 || hc.IpcMode != "" {
		t.Errorf("shm %d ipc %q", hc.ShmSize, hc.IpcMode)
	}
	wantMounts := []mount.Mount{{Type: mount.TypeBind, Source: dir, Target: "/cache"}}
	if !reflect.DeepEqual(hc.Mounts, wantMounts) {
		t.Errorf("mounts = %+v, want %+v", hc.Mounts, wantMounts)
	}
	hs := httpWait(t, p)
	if *hs.Timeout() != 42*time.Minute || hs.Headers["Authorization"] != "Bearer sk-secret" {
		t.Errorf("wait timeout %s headers %v", *hs.Timeout(), hs.Headers)
	}
	if !p.GPU || p.APIKey != "sk-secret" || p.LogBufferBytes != 1000 {
		t.Errorf("plan = %+v", p)
	}
}

func TestAssembleAllGPUsAndIPC(t *testing.T) {
	spec := testSpec()
	spec.IPCHost = true
	var s containers.Settings
	if err := ApplySettings(&s, []testcontainers.ContainerCustomizer{containers.WithGPUs()}); err != nil {
		t.Fatal(err)
	}
	p, err := Assemble(spec, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	hc := p.HostConfig()
	want := []container.DeviceRequest{{Driver: "nvidia", Count: -1, Capabilities: [][]string{{"gpu"}}}}
	if !reflect.DeepEqual(hc.DeviceRequests, want) {
		t.Errorf("device requests = %+v", hc.DeviceRequests)
	}
	if hc.IpcMode != container.IPCModeHost || hc.ShmSize != 0 {
		t.Errorf("engine default: ipc %q shm %d, want host IPC", hc.IpcMode, hc.ShmSize)
	}

	// A sized /dev/shm replaces the engine's default of host IPC.
	p, err = Assemble(spec, containers.Settings{ShmSize: 1 << 30}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if hc := p.HostConfig(); hc.IpcMode != "" || hc.ShmSize != 1<<30 {
		t.Errorf("with shm: ipc %q shm %d", hc.IpcMode, hc.ShmSize)
	}

	// An engine default shm size applies when the caller says nothing.
	spec = testSpec()
	spec.ShmSize = 1 << 30
	p, err = Assemble(spec, containers.Settings{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if hc := p.HostConfig(); hc.ShmSize != 1<<30 {
		t.Errorf("engine default shm = %d", hc.ShmSize)
	}
}

func TestAssembleHostNetwork(t *testing.T) {
	p, err := Assemble(testSpec(), containers.Settings{HostNetwork: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	port, ok := strings.CutSuffix(p.Port, "/tcp")
	if !ok {
		t.Fatalf("port %q", p.Port)
	}
	n, err := strconv.Atoi(port)
	if err != nil || n <= 0 || n > 65535 {
		t.Fatalf("port %q", port)
	}
	wantCmd := []string{"--model", "m", "--host", "127.0.0.1", "--port", port}
	if !reflect.DeepEqual(p.Request.Cmd, wantCmd) {
		t.Errorf("cmd = %q, want %q", p.Request.Cmd, wantCmd)
	}
	if len(p.Request.ExposedPorts) != 0 {
		t.Errorf("exposed ports %q on the host network", p.Request.ExposedPorts)
	}
	hc := p.HostConfig()
	if hc.NetworkMode != "host" || len(hc.PortBindings) != 0 {
		t.Errorf("network %q bindings %v", hc.NetworkMode, hc.PortBindings)
	}
	if hs := httpWait(t, p); hs.Port.String() != p.Port {
		t.Errorf("wait port %s, plan port %s", hs.Port, p.Port)
	}
	if !p.HostNetwork {
		t.Error("plan does not say host network")
	}
}

func TestAssembleCallerOptionsWin(t *testing.T) {
	user := []testcontainers.ContainerCustomizer{
		testcontainers.WithEnv(map[string]string{"A": "tc"}),
		testcontainers.WithCmdArgs("--late"),
		testcontainers.WithHostConfigModifier(func(hc *container.HostConfig) { hc.ShmSize = 7 }),
		testcontainers.WithWaitStrategy(wait.ForLog("ready")),
	}
	p, err := Assemble(testSpec(), containers.Settings{ShmSize: 5}, user)
	if err != nil {
		t.Fatal(err)
	}
	if p.Request.Env["A"] != "tc" {
		t.Errorf("env A = %q", p.Request.Env["A"])
	}
	if got := p.Request.Cmd[len(p.Request.Cmd)-1]; got != "--late" {
		t.Errorf("last arg %q", got)
	}
	if hc := p.HostConfig(); hc.ShmSize != 7 {
		t.Errorf("shm = %d, the caller's modifier runs last", hc.ShmSize)
	}
	multi, ok := p.Request.WaitingFor.(*wait.MultiStrategy)
	if !ok || len(multi.Strategies) != 1 {
		t.Fatalf("wait = %#v, want the caller's strategy alone", p.Request.WaitingFor)
	}
	if _, ok := multi.Strategies[0].(*wait.LogStrategy); !ok {
		t.Errorf("wait = %T, want the caller's log strategy", multi.Strategies[0])
	}
}

func TestAssembleErrors(t *testing.T) {
	noCache := testSpec()
	noCache.CachePath = ""
	noKey := testSpec()
	noKey.APIKey = nil
	noImage := testSpec()
	noImage.Image = ""
	noListen := testSpec()
	noListen.Listen = nil
	noHealth := testSpec()
	noHealth.HealthPath = ""
	cases := []struct {
		name string
		spec Spec
		s    containers.Settings
		want string
	}{
		{"cache", noCache, containers.Settings{ModelCacheDir: "/x"}, "WithModelCache: fake has no model cache path"},
		{"key", noKey, containers.Settings{APIKey: "k"}, "WithAPIKey: fake has no API key setting"},
		{"image", noImage, containers.Settings{}, "no image given"},
		{"listen", noListen, containers.Settings{}, "says nothing about how the engine listens"},
		{"health", noHealth, containers.Settings{}, "no health path"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Assemble(c.spec, c.s, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestOptionValidation(t *testing.T) {
	cases := []struct {
		opt  containers.Option
		want string
	}{
		{containers.WithGPUDeviceIDs(), "WithGPUDeviceIDs: no device ID given"},
		{containers.WithGPUDeviceIDs("0", ""), "WithGPUDeviceIDs: device ID 1 is empty"},
		{containers.WithShmSize(0), "WithShmSize: size must be positive, got 0"},
		{containers.WithModelCache(""), "WithModelCache: empty directory"},
		{containers.WithAPIKey(""), "WithAPIKey: empty key"},
		{containers.WithStartupTimeout(-time.Second), "WithStartupTimeout: timeout must be positive, got -1s"},
		{containers.WithLogBuffer(0), "WithLogBuffer: size must be positive, got 0"},
	}
	for _, c := range cases {
		var s containers.Settings
		err := ApplySettings(&s, []testcontainers.ContainerCustomizer{c.opt})
		if err == nil || err.Error() != c.want {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

func TestWithModelCacheMakesPathAbsolute(t *testing.T) {
	t.Chdir(t.TempDir())
	var s containers.Settings
	if err := containers.WithModelCache("hf")(&s); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.ModelCacheDir, "/") || !strings.HasSuffix(s.ModelCacheDir, "/hf") {
		t.Errorf("cache dir %q", s.ModelCacheDir)
	}
}

func TestCollectIgnoresOtherCustomizers(t *testing.T) {
	add := func(k int) moduleOption { return func(o *moduleOptions) error { o.n = o.n*10 + k; return nil } }
	var got moduleOptions
	opts := []testcontainers.ContainerCustomizer{
		add(1), containers.WithIPCHost(), testcontainers.WithEnv(nil), add(2),
	}
	if err := Collect[moduleOption](&got, opts); err != nil {
		t.Fatal(err)
	}
	if got.n != 12 {
		t.Errorf("applied %d, want the two module options in order (12)", got.n)
	}
	var s containers.Settings
	if err := ApplySettings(&s, opts); err != nil || !s.IPCHost {
		t.Errorf("settings %+v err %v", s, err)
	}
}

// moduleOptions and moduleOption are a module's option types in miniature.
type moduleOptions struct{ n int }

type moduleOption func(*moduleOptions) error

func (moduleOption) Customize(*testcontainers.GenericContainerRequest) error { return nil }
