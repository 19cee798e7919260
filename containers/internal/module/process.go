package module

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/internal/redact"
)

// DefaultStopTimeout is how long Shutdown waits after the polite stop
// signal before it kills the process group.
const DefaultStopTimeout = 10 * time.Second

// ProcessSpec describes an engine run as a local process on 127.0.0.1, for
// machines without Docker and for CI.
type ProcessSpec struct {
	// Kind names the engine ("ollama", "llamacpp", …).
	Kind string
	// Binary is the engine executable: a path, or a name looked up on PATH.
	Binary string
	// Args are the engine's arguments, without the listen address, which
	// Listen adds.
	Args []string
	// Env is added to the inherited environment; it wins over inherited
	// variables of the same name.
	Env map[string]string
	// Dir is the working directory; empty means the caller's.
	Dir string
	// Listen returns the arguments and environment that make the engine
	// listen on host:port. The host is always 127.0.0.1.
	Listen func(host string, port int) (args []string, env map[string]string)
	// HealthPath answers 200 once the engine serves requests.
	HealthPath string
	// MetricsPath is the Prometheus endpoint; empty when the engine has none.
	MetricsPath string
	// Model is the served model name to put in requests.
	Model string
	// Version describes the engine build for Identity; empty when unknown.
	Version string
	// VersionPath, when set and Version is empty, answers a JSON object
	// whose "version" field is read once the engine is ready.
	VersionPath string
	// APIKey is the key the engine requires, sent by the readiness probe
	// and redacted from Command and Identity; empty when none.
	APIKey string
	// StartupTimeout bounds the wait for readiness; zero means
	// DefaultStartupTimeout.
	StartupTimeout time.Duration
	// StopTimeout is how long Shutdown waits for the process to exit after
	// SIGTERM before it kills the whole process group; zero means
	// DefaultStopTimeout.
	StopTimeout time.Duration
	// LogBufferBytes bounds the engine output kept in memory; zero means
	// DefaultLogBufferBytes.
	LogBufferBytes int
	// LogFile, when set, receives the engine's whole output as well.
	LogFile string
}

// Process is an engine running as a local process in its own process group,
// listening on 127.0.0.1. It implements Engine.
type Process struct {
	kind       string
	model      string
	version    string
	args       []string
	command    []string
	baseURL    string
	metricsURL string
	apiKey     string
	coldStart  time.Duration
	startTimes containers.StartTimes
	stopAfter  time.Duration

	cmd     *exec.Cmd
	logs    *containers.LogRing
	logFile *os.File
	exited  chan struct{}
	waitErr error

	stopOnce sync.Once
	stopErr  error
}

var _ containers.Engine = (*Process)(nil)

// StartProcess starts the engine of spec on a free 127.0.0.1 port and waits
// until its health endpoint answers 200 (polled every 100 ms, each poll
// bounded by two seconds), the process exits, StartupTimeout passes or ctx
// ends. The process gets its own process group, so Shutdown also stops
// whatever it started (an engine's runner subprocesses).
//
// Like Start it may return a non-nil Process together with an error (a
// process that started but never became ready, already stopped): terminating
// it is always safe. The error quotes the end of the engine's output.
func StartProcess(ctx context.Context, spec ProcessSpec) (*Process, error) {
	requested := time.Now()
	if spec.Kind == "" {
		return nil, errors.New("process spec has no kind")
	}
	if spec.Binary == "" {
		return nil, fmt.Errorf("%s: no binary given", spec.Kind)
	}
	if spec.HealthPath == "" {
		return nil, fmt.Errorf("%s: process spec has no health path", spec.Kind)
	}
	if spec.Listen == nil {
		return nil, fmt.Errorf("%s: process spec says nothing about how the engine listens", spec.Kind)
	}
	binary, err := exec.LookPath(spec.Binary)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec.Kind, err)
	}
	port, err := FreeLoopbackPort()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec.Kind, err)
	}
	host := loopback.String()
	listenArgs, listenEnv := spec.Listen(host, port)
	args := append(append([]string(nil), spec.Args...), listenArgs...)
	env := map[string]string{}
	maps.Copy(env, spec.Env)
	maps.Copy(env, listenEnv)

	p := &Process{
		kind:      spec.Kind,
		model:     spec.Model,
		version:   spec.Version,
		args:      redact.New(spec.APIKey).Strings(args),
		command:   redact.New(spec.APIKey).Strings(append([]string{binary}, args...)),
		apiKey:    spec.APIKey,
		baseURL:   "http://" + net.JoinHostPort(host, strconv.Itoa(port)),
		stopAfter: spec.StopTimeout,
		logs:      containers.NewLogRing(spec.LogBufferBytes),
		exited:    make(chan struct{}),
	}
	if p.stopAfter <= 0 {
		p.stopAfter = DefaultStopTimeout
	}
	if spec.MetricsPath != "" {
		p.metricsURL = p.baseURL + spec.MetricsPath
	}

	var out io.Writer = p.logs
	if spec.LogFile != "" {
		f, err := os.Create(spec.LogFile)
		if err != nil {
			return nil, fmt.Errorf("%s: log file: %w", spec.Kind, err)
		}
		p.logFile = f
		out = io.MultiWriter(p.logs, f)
	}

	// exec.Command, not CommandContext: the process must outlive the start
	// context; Shutdown stops it.
	p.cmd = exec.Command(binary, args...)
	p.cmd.Dir = spec.Dir
	p.cmd.Env = mergeEnv(os.Environ(), env)
	p.cmd.Stdout = out
	p.cmd.Stderr = out
	p.cmd.SysProcAttr = processGroupAttr()
	// Output copying goroutines must not keep Wait waiting once the engine
	// is gone but a grandchild still holds the pipe.
	p.cmd.WaitDelay = time.Second

	started := time.Now()
	if err := p.cmd.Start(); err != nil {
		p.closeLog()
		return nil, fmt.Errorf("%s: start %s: %w", spec.Kind, binary, err)
	}
	go func() {
		p.waitErr = p.cmd.Wait()
		p.closeLog()
		close(p.exited)
	}()

	timeout := spec.StartupTimeout
	if timeout <= 0 {
		timeout = containers.DefaultStartupTimeout
	}
	if err := p.waitReady(ctx, spec.HealthPath, timeout); err != nil {
		stopErr := p.Shutdown(context.Background())
		err = fmt.Errorf("%s: %w", spec.Kind, err)
		if stopErr != nil {
			err = errors.Join(err, stopErr)
		}
		return p, withLogTail(err, p.logs, p.apiKey)
	}
	ready := time.Now()
	p.coldStart = ready.Sub(started)
	p.startTimes = containers.StartTimes{Requested: requested, Started: started, Ready: ready}
	if p.version == "" && spec.VersionPath != "" {
		// A version is a courtesy of the engine; its absence is not a
		// failed start.
		p.version, _ = engineVersion(ctx, p.baseURL+spec.VersionPath, p.apiKey)
	}
	if p.model == "" {
		model, err := ServedModel(ctx, p.baseURL, p.apiKey)
		if err != nil {
			err = fmt.Errorf("%s: served model name: %w", spec.Kind, err)
			if stopErr := p.Shutdown(context.Background()); stopErr != nil {
				err = errors.Join(err, stopErr)
			}
			return p, withLogTail(err, p.logs, p.apiKey)
		}
		p.model = model
	}
	return p, nil
}

// waitReady polls the health endpoint until it answers 200.
func (p *Process) waitReady(ctx context.Context, path string, timeout time.Duration) error {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(readinessPollInterval)
	defer tick.Stop()
	client := &http.Client{Timeout: 2 * time.Second}
	url := p.baseURL + path
	last := "no answer yet"
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		if p.apiKey != "" {
			req.Header.Set("Authorization", "Bearer "+p.apiKey)
		}
		resp, err := client.Do(req)
		if err == nil {
			io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			last = "last answer: " + resp.Status
		} else {
			last = "last error: " + err.Error()
		}
		select {
		case <-p.exited:
			return fmt.Errorf("exited before it was ready (%v)", p.exitStatus())
		case <-ctx.Done():
			return fmt.Errorf("waiting for GET %s: %w", url, ctx.Err())
		case <-deadline.C:
			return fmt.Errorf("not ready after %s: GET %s %s", timeout, url, last)
		case <-tick.C:
		}
	}
}

// exitStatus describes how the process ended; call it after exited closes.
func (p *Process) exitStatus() error {
	if p.waitErr != nil {
		return p.waitErr
	}
	return errors.New("exit status 0")
}

func (p *Process) closeLog() {
	if p.logFile != nil {
		p.logFile.Close()
	}
}

// Kind names the engine.
func (p *Process) Kind() string { return p.kind }

// BaseURL is the OpenAI-compatible root, "http://127.0.0.1:<port>".
func (p *Process) BaseURL() string { return p.baseURL }

// Model is the served model name to put in requests.
func (p *Process) Model() string { return p.model }

// MetricsURL is the Prometheus endpoint; empty when the engine has none.
func (p *Process) MetricsURL() string { return p.metricsURL }

// ColdStart is the time from starting the process to the first 200 from its
// health endpoint (polled every 100 ms).
func (p *Process) ColdStart() time.Duration { return p.coldStart }

// StartTimes are the start's instants: asked for, the process's start and
// its readiness (no pull).
func (p *Process) StartTimes() containers.StartTimes { return p.startTimes }

// Command is the resolved binary path followed by the arguments.
func (p *Process) Command() []string { return slices.Clone(p.command) }

// PID is the engine process's ID (also its process group's).
func (p *Process) PID() int { return p.cmd.Process.Pid }

// Exited is closed once the process has exited.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// Identity describes the engine for a report's experiment record.
func (p *Process) Identity() containers.Identity {
	return containers.Identity{
		Kind:    p.kind,
		Model:   p.model,
		Args:    slices.Clone(p.args),
		Version: p.version,
	}
}

// Logs returns the engine's output kept in memory: all of it, or its most
// recent part (bounded by ProcessSpec.LogBufferBytes) preceded by a line
// saying how much was dropped. ProcessSpec.LogFile keeps everything.
func (p *Process) Logs(context.Context) (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader([]byte(p.logs.String()))), nil
}

// APIKey is the key clients must send as "Authorization: Bearer <key>";
// empty when the engine requires none.
func (p *Process) APIKey() string { return p.apiKey }

// LogTail returns the engine output kept in memory, for failure reports.
func (p *Process) LogTail() string { return p.logs.String() }

// Shutdown sends SIGTERM to the process group, waits up to the stop timeout
// for the engine to exit, then kills the whole group with SIGKILL, and waits
// for the process to be reaped. It is safe to call more than once and on a
// process that already exited; it returns an error only when the process
// could not be stopped or ctx ended first.
func (p *Process) Shutdown(ctx context.Context) error {
	if p == nil || p.cmd == nil || p.cmd.Process == nil {
		return nil
	}
	p.stopOnce.Do(func() { p.stopErr = p.stop(ctx) })
	return p.stopErr
}

func (p *Process) stop(ctx context.Context) error {
	pid := p.cmd.Process.Pid
	select {
	case <-p.exited:
		// The engine is gone; its group may still hold children.
		killGroup(pid)
		return nil
	default:
	}
	politeStop(pid)
	timer := time.NewTimer(p.stopAfter)
	defer timer.Stop()
	select {
	case <-p.exited:
		killGroup(pid)
		return nil
	case <-timer.C:
	case <-ctx.Done():
	}
	if err := killGroup(pid); err != nil {
		return fmt.Errorf("shut down %s (pid %d): %w", p.kind, pid, err)
	}
	select {
	case <-p.exited:
		return nil
	case <-time.After(5 * time.Second):
		return fmt.Errorf("shut down %s (pid %d): still running 5s after SIGKILL", p.kind, pid)
	}
}

// mergeEnv returns base with the variables of add set, replacing earlier
// values of the same name.
func mergeEnv(base []string, add map[string]string) []string {
	out := make([]string, 0, len(base)+len(add))
	for _, kv := range base {
		name, _, _ := cutEnv(kv)
		if _, ok := add[name]; !ok {
			out = append(out, kv)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(add)) {
		out = append(out, k+"="+add[k])
	}
	return out
}

func cutEnv(kv string) (name, value string, ok bool) {
	for i := 0; i < len(kv); i++ {
		if kv[i] == '=' && i > 0 {
			return kv[:i], kv[i+1:], true
		}
	}
	return kv, "", false
}
