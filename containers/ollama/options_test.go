package ollama

import (
	"context"
	"io"
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/openai"

	"github.com/moby/moby/api/types/mount"
	"github.com/moby/moby/api/types/network"
	"github.com/servebench/servebench/containers"
	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"
)

func TestModelfileDefaults(t *testing.T) {
	got := modelfile("/m/tiny.gguf", defaults())
	want := "FROM /m/tiny.gguf\n" +
		"TEMPLATE \"\"\"{{ if .System }}{{ .System }}\n{{ end }}{{ .Prompt }}{{ .Response }}\"\"\"\n" +
		"PARAMETER num_thread 1\n" +
		"PARAMETER num_predict 256\n"
	if got != want {
		t.Errorf("Modelfile:\n%s\nwant:\n%s", got, want)
	}
}

func TestModelfileOptions(t *testing.T) {
	o := defaults()
	for _, opt := range []Option{
		WithTemplate("{{ .Prompt }}"), WithNumThread(2), WithNumPredict(64), WithNumCtx(2048),
		WithParameter("temperature", "0"), WithParameter("stop", "<|end|>"),
	} {
		if err := opt(&o); err != nil {
			t.Fatal(err)
		}
	}
	got := modelfile("/m/x.gguf", o)
	want := "FROM /m/x.gguf\nTEMPLATE \"\"\"{{ .Prompt }}\"\"\"\nPARAMETER num_thread 2\nPARAMETER num_predict 64\n" +
		"PARAMETER num_ctx 2048\nPARAMETER temperature 0\nPARAMETER stop <|end|>\n"
	if got != want {
		t.Errorf("Modelfile:\n%s\nwant:\n%s", got, want)
	}
}

func TestOptionErrors(t *testing.T) {
	cases := []struct {
		opt  Option
		want string
	}{
		{WithModelFile(""), "ollama.WithModelFile: empty path"},
		{WithModelName("two words"), `ollama.WithModelName: "two words" is not a model name`},
		{WithTemplate(`a """ b`), `must not contain """`},
		{WithNumParallel(0), "ollama.WithNumParallel: must be positive, got 0"},
		{WithNumThread(-1), "ollama.WithNumThread: must be positive, got -1"},
		{WithNumPredict(0), "ollama.WithNumPredict: must be positive"},
		{WithNumCtx(0), "ollama.WithNumCtx: must be positive"},
		{WithParameter("stop", "a\nb"), "value one line"},
	}
	for _, c := range cases {
		o := defaults()
		if err := c.opt(&o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

func TestRequestDefaults(t *testing.T) {
	model := filepath.Join(t.TempDir(), "tiny.gguf")
	os.WriteFile(model, []byte("GGUF"), 0o644)
	p, o, err := request("ollama/ollama:0.17.4", WithModelFile(model))
	if err != nil {
		t.Fatal(err)
	}
	r := p.Request
	if r.Image != "ollama/ollama:0.17.4" || len(r.Entrypoint) != 0 {
		t.Errorf("image %q entrypoint %q; the image's own entrypoint (ollama) must run", r.Image, r.Entrypoint)
	}
	if !reflect.DeepEqual(r.Cmd, []string{"serve"}) {
		t.Errorf("cmd %q, want [serve]", r.Cmd)
	}
	wantEnv := map[string]string{
		"OLLAMA_HOST": "0.0.0.0:11434", "OLLAMA_MODELS": "/root/.ollama/models", "OLLAMA_NUM_PARALLEL": "4",
		"OLLAMA_KEEP_ALIVE": "-1", "OLLAMA_NO_CLOUD": "1",
	}
	if !reflect.DeepEqual(r.Env, wantEnv) {
		t.Errorf("env %v, want %v", r.Env, wantEnv)
	}
	hc := p.HostConfig()
	wantBind := network.PortMap{network.MustParsePort("11434/tcp"): {{HostIP: netip.MustParseAddr("127.0.0.1")}}}
	if !reflect.DeepEqual(hc.PortBindings, wantBind) {
		t.Errorf("bindings %v, want 11434 on 127.0.0.1 only", hc.PortBindings)
	}
	hs := r.WaitingFor.(*wait.HTTPStrategy)
	if hs.Path != "/" || hs.Port.String() != "11434/tcp" || *hs.Timeout() != time.Minute {
		t.Errorf("wait %q on %s for %s", hs.Path, hs.Port, *hs.Timeout())
	}
	if len(r.Files) != 2 || r.Files[0].HostFilePath != model || r.Files[0].ContainerFilePath != "/servebench/model.gguf" ||
		r.Files[1].ContainerFilePath != "/servebench/Modelfile" {
		t.Fatalf("files %+v", r.Files)
	}
	mf, _ := io.ReadAll(r.Files[1].Reader)
	if string(mf) != modelfile("/servebench/model.gguf", o) || !strings.HasPrefix(string(mf), "FROM /servebench/model.gguf\n") {
		t.Errorf("Modelfile in the container:\n%s", mf)
	}
	if p.Kind != "ollama" || p.Model != "tiny" || p.MetricsPath != "" {
		t.Errorf("plan kind %q model %q metrics %q", p.Kind, p.Model, p.MetricsPath)
	}
}

func TestRequestSharedOptions(t *testing.T) {
	cache := t.TempDir()
	p, _, err := request("ollama/ollama:0.17.4",
		WithModelFile("tiny.gguf"), WithModelName("small"), WithNumParallel(2),
		containers.WithModelCache(cache), containers.WithHostNetwork(),
		containers.WithEnv(map[string]string{"OLLAMA_DEBUG": "1"}), containers.WithStartupTimeout(3*time.Minute),
		testcontainers.WithLabels(map[string]string{"x": "y"}))
	if err != nil {
		t.Fatal(err)
	}
	r := p.Request
	if !strings.HasPrefix(r.Env["OLLAMA_HOST"], "127.0.0.1:") || r.Env["OLLAMA_NUM_PARALLEL"] != "2" || r.Env["OLLAMA_DEBUG"] != "1" {
		t.Errorf("env %v", r.Env)
	}
	hc := p.HostConfig()
	if hc.NetworkMode != "host" || len(hc.PortBindings) != 0 {
		t.Errorf("network %q bindings %v", hc.NetworkMode, hc.PortBindings)
	}
	wantMount := []mount.Mount{{Type: mount.TypeBind, Source: cache, Target: ModelsPath}}
	if !reflect.DeepEqual(hc.Mounts, wantMount) {
		t.Errorf("mounts %+v", hc.Mounts)
	}
	if r.Labels["x"] != "y" || p.Model != "small" {
		t.Errorf("labels %v model %q", r.Labels, p.Model)
	}
	if *r.WaitingFor.(*wait.HTTPStrategy).Timeout() != 3*time.Minute {
		t.Error("startup timeout not applied")
	}
}

func TestRequestErrors(t *testing.T) {
	if _, _, err := request("ollama/ollama"); err == nil || !strings.Contains(err.Error(), "pass ollama.WithModelFile") {
		t.Errorf("no model: %v", err)
	}
	_, _, err := request("ollama/ollama", WithModelFile("x.gguf"), containers.WithAPIKey("k"))
	if err == nil || !strings.Contains(err.Error(), "WithAPIKey") {
		t.Errorf("API key: %v", err)
	}
}

func TestRunLocalRejectsContainerOptions(t *testing.T) {
	model := filepath.Join(t.TempDir(), "tiny.gguf")
	os.WriteFile(model, []byte("GGUF"), 0o644)
	cases := []struct {
		opt  testcontainers.ContainerCustomizer
		want string
	}{
		{containers.WithGPUs(), "apply to containers"},
		{containers.WithShmSize(1 << 20), "apply to containers only"},
		{containers.WithIPCHost(), "apply to containers only"},
		{containers.WithHostNetwork(), "always listens on 127.0.0.1"},
		{containers.WithAPIKey("k"), "Ollama has no API key"},
	}
	for _, c := range cases {
		l, err := RunLocal(context.Background(), "/bin/true", WithModelFile(model), c.opt)
		if l != nil || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("RunLocal with %T: %v, %v; want error %q", c.opt, l, err, c.want)
		}
	}
	if _, err := RunLocal(context.Background(), "/bin/true"); err == nil || !strings.Contains(err.Error(), "pass ollama.WithModelFile") {
		t.Errorf("no model: %v", err)
	}
	if _, err := RunLocal(context.Background(), "/bin/true", WithModelFile("/nonexistent.gguf")); err == nil || !strings.Contains(err.Error(), "/nonexistent.gguf") {
		t.Errorf("missing model file: %v", err)
	}
}

func TestFindBinary(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "ollama")
	os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755)
	t.Setenv(EnvBinary, bin)
	if got, err := FindBinary(); err != nil || got != bin {
		t.Errorf("FindBinary with %s set = %q, %v", EnvBinary, got, err)
	}
	t.Setenv(EnvBinary, filepath.Join(dir, "missing"))
	if _, err := FindBinary(); err == nil || !strings.Contains(err.Error(), "is not an executable file") {
		t.Errorf("missing %s: %v", EnvBinary, err)
	}

	t.Setenv(EnvBinary, "")
	cache := t.TempDir()
	t.Setenv("SERVEBENCH_CACHE_DIR", cache)
	t.Setenv("PATH", t.TempDir())
	want := filepath.Join(cache, "ollama-v0.17.4", "bin", "ollama")
	if CachedBinary(BuildVersion) != want {
		t.Errorf("CachedBinary = %q, want %q", CachedBinary(BuildVersion), want)
	}
	_, err := FindBinary()
	if err == nil || !strings.Contains(err.Error(), "bash .ci/build-ollama.sh") {
		t.Errorf("no binary: %v, want the build command", err)
	}
	os.MkdirAll(filepath.Dir(want), 0o755)
	os.WriteFile(want, []byte("#!/bin/sh\n"), 0o755)
	if got, err := FindBinary(); err != nil || got != want {
		t.Errorf("FindBinary with a cached build = %q, %v", got, err)
	}
}

func TestLengthControlIsUnsupported(t *testing.T) {
	if LengthControl() != openai.LengthUnsupported {
		t.Errorf("LengthControl = %q", LengthControl())
	}
	got, ok := openai.LengthControlFor("ollama")
	if !ok || got != LengthControl() {
		t.Errorf("openai.LengthControlFor(ollama) = %q, %v; the module says %q", got, ok, LengthControl())
	}
}
