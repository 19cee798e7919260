package module

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/internal/redact"

	"github.com/testcontainers/testcontainers-go"
)

// startErrorTailBytes bounds the engine output quoted in a start error.
const startErrorTailBytes = 4 << 10

// Start creates and starts the container of plan, waits until the engine's
// health endpoint answers 200, and returns it as a Base: base URL resolved,
// cold start measured, image ID and launch command read back from Docker,
// output captured in a bounded ring. When GPUs were requested it first
// checks that the daemon has the NVIDIA runtime (ErrNoGPURuntime otherwise).
//
// Like testcontainers.Run it may return a non-nil Base together with an
// error (a container that started but never became ready): always terminate
// the result. The error then quotes the end of the engine's output.
func Start(ctx context.Context, plan Plan) (*Base, error) {
	return StartWith(ctx, plan, genericRun)
}

// Runner creates and starts a container from a request: by default
// testcontainers.GenericContainer, or an official testcontainers-go
// module's Run, which adds the module's own settings to the request.
type Runner func(ctx context.Context, req testcontainers.GenericContainerRequest) (testcontainers.Container, error)

// genericRun is the default Runner.
func genericRun(ctx context.Context, req testcontainers.GenericContainerRequest) (testcontainers.Container, error) {
	return testcontainers.GenericContainer(ctx, req)
}

// StartWith is Start with the container created by run: an engine with an
// official module starts through it, and servebench adds only what the
// module lacks (readiness on the API, log capture, the cold start, the
// engine's identity).
func StartWith(ctx context.Context, plan Plan, run Runner) (*Base, error) {
	if plan.GPU {
		if err := containers.GPUAvailable(ctx); err != nil {
			return nil, fmt.Errorf("GPUs requested: %w", err)
		}
	}

	req := plan.Request
	ring := containers.NewLogRing(plan.LogBufferBytes)
	logCfg := testcontainers.LogConsumerConfig{}
	if req.LogConsumerCfg != nil {
		logCfg = *req.LogConsumerCfg
	}
	logCfg.Consumers = append(append([]testcontainers.LogConsumer(nil), logCfg.Consumers...), ring)
	req.LogConsumerCfg = &logCfg

	requested := time.Now()
	var creating, started, ready time.Time
	req.LifecycleHooks = append(append([]testcontainers.ContainerLifecycleHooks(nil), req.LifecycleHooks...),
		testcontainers.ContainerLifecycleHooks{
			// testcontainers checks and pulls the image before it runs the
			// creating hooks: the time to here is the pull.
			PreCreates: []testcontainers.ContainerRequestHook{func(context.Context, testcontainers.ContainerRequest) error {
				creating = time.Now()
				return nil
			}},
			PreStarts: []testcontainers.ContainerHook{func(context.Context, testcontainers.Container) error {
				started = time.Now()
				return nil
			}},
			PostReadies: []testcontainers.ContainerHook{func(context.Context, testcontainers.Container) error {
				ready = time.Now()
				return nil
			}},
		})

	ctr, err := run(ctx, req)
	if ctr == nil {
		if err == nil {
			err = errors.New("no container was created")
		}
		return nil, err
	}
	b := &Base{
		Container: ctr,
		kind:      plan.Kind,
		image:     plan.Image,
		model:     plan.Model,
		args:      append([]string(nil), plan.Args...),
		apiKey:    plan.APIKey,
		logs:      ring,
	}
	if err != nil {
		return b, withLogTail(err, ring, plan.APIKey)
	}
	if !started.IsZero() && !ready.IsZero() {
		b.coldStart = ready.Sub(started)
		b.startTimes = containers.StartTimes{Requested: requested, Started: started, Ready: ready}
		if !creating.IsZero() {
			b.startTimes.Pull = creating.Sub(requested)
		}
	}

	if err := b.resolve(ctx, plan); err != nil {
		return b, withLogTail(err, ring, plan.APIKey)
	}
	return b, nil
}

// resolve reads back from Docker and the engine what Base reports.
func (b *Base) resolve(ctx context.Context, plan Plan) error {
	host, err := b.Host(ctx)
	if err != nil {
		return fmt.Errorf("daemon host: %w", err)
	}
	port, err := b.MappedPort(ctx, plan.Port)
	if err != nil {
		return fmt.Errorf("mapped port %s: %w", plan.Port, err)
	}
	b.baseURL = "http://" + net.JoinHostPort(host, port.Port())
	if plan.MetricsPath != "" {
		b.metricsURL = b.baseURL + plan.MetricsPath
	}

	inspect, err := b.Inspect(ctx)
	if err != nil {
		return fmt.Errorf("inspect container: %w", err)
	}
	b.imageID = inspect.Image
	b.command = redact.New(b.apiKey).Strings(append([]string{inspect.Path}, inspect.Args...))
	if b.image == "" && inspect.Config != nil {
		b.image = inspect.Config.Image
	}
	b.imageDigest = repoDigest(ctx, inspect.Image)

	if plan.VersionPath != "" {
		// A version is a courtesy of the engine; its absence is not a
		// failed start.
		b.version, _ = engineVersion(ctx, b.baseURL+plan.VersionPath, b.apiKey)
	}

	if b.model == "" {
		model, err := ServedModel(ctx, b.baseURL, b.apiKey)
		if err != nil {
			return fmt.Errorf("served model name: %w", err)
		}
		b.model = model
	}
	return nil
}

// repoDigest returns the first repository digest of an image, or "" for a
// local image or when Docker cannot say.
func repoDigest(ctx context.Context, imageID string) string {
	cli, err := testcontainers.NewDockerClientWithOpts(ctx)
	if err != nil {
		return ""
	}
	defer cli.Close()
	img, err := cli.ImageInspect(ctx, imageID)
	if err != nil || len(img.RepoDigests) == 0 {
		return ""
	}
	return img.RepoDigests[0]
}

// getJSON GETs url (with apiKey as a bearer token when set) and decodes the
// JSON answer into v.
func getJSON(ctx context.Context, url, apiKey string, v any) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	if apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+apiKey)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: status %s", req.URL.Path, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		return fmt.Errorf("GET %s: %w", req.URL.Path, err)
	}
	return nil
}

// engineVersion reads the "version" field of a JSON object at url.
func engineVersion(ctx context.Context, url, apiKey string) (string, error) {
	var v struct {
		Version string `json:"version"`
	}
	if err := getJSON(ctx, url, apiKey, &v); err != nil {
		return "", err
	}
	return v.Version, nil
}

// ServedModel asks an OpenAI-compatible server for its first model ID
// (GET /v1/models), sending apiKey as a bearer token when it is set.
func ServedModel(ctx context.Context, baseURL, apiKey string) (string, error) {
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := getJSON(ctx, baseURL+"/v1/models", apiKey, &list); err != nil {
		return "", err
	}
	if len(list.Data) == 0 || list.Data[0].ID == "" {
		return "", errors.New("GET /v1/models: no model listed")
	}
	return list.Data[0].ID, nil
}

// withLogTail appends the end of the engine's output to a start error.
func withLogTail(err error, ring *containers.LogRing, apiKey string) error {
	tail := ring.Bytes()
	if len(tail) == 0 {
		return err
	}
	if len(tail) > startErrorTailBytes {
		tail = tail[len(tail)-startErrorTailBytes:]
	}
	return fmt.Errorf("%w\nlast engine output:\n%s", err, redact.New(apiKey).Redact(string(tail)))
}

// RunModule is the body of an engine module's Run: it stops at planErr (the
// error of assembling the request) before anything starts, otherwise starts
// plan and wraps the started Base in the module's container type. Errors
// read "run <kind>: …". Like testcontainers.Run it may return a container
// together with an error; the caller terminates it in either case.
func RunModule[C any](ctx context.Context, kind string, plan Plan, planErr error, wrap func(*Base) *C) (*C, error) {
	if planErr != nil {
		return nil, fmt.Errorf("run %s: %w", kind, planErr)
	}
	base, err := Start(ctx, plan)
	var c *C
	if base != nil {
		c = wrap(base)
	}
	if err != nil {
		return c, fmt.Errorf("run %s: %w", kind, err)
	}
	return c, nil
}
