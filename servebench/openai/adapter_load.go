package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/servebench/servebench/internal/oneline"
	"github.com/servebench/servebench/servebench/schedule"
)

// DefaultAdapterLoadTimeout bounds one adapter load call when the run
// declares no timeout of its own: loading reads the adapter's weights
// from disk or a hub, which can take minutes.
const DefaultAdapterLoadTimeout = 5 * time.Minute

// The routes that load a LoRA adapter into a running engine: vLLM's (it
// needs VLLM_ALLOW_RUNTIME_LORA_UPDATING=True) and SGLang's. Both take
// {"lora_name": NAME, "lora_path": PATH}.
const (
	RouteLoadAdapterVLLM   = "/v1/load_lora_adapter"
	RouteLoadAdapterSGLang = "/load_lora_adapter"
)

// The routes that unload one, each taking {"lora_name": NAME}.
const (
	RouteUnloadAdapterVLLM   = "/v1/unload_lora_adapter"
	RouteUnloadAdapterSGLang = "/unload_lora_adapter"
)

// AdapterLoad is one LoRA adapter to load into the engine before a run:
// the name requests will use and the path the engine reads it from.
type AdapterLoad struct {
	Name string
	Path string
}

// AdapterLoadResult is what one load call took: the route it was sent
// to, the HTTP status answered (0 when none came) and the time from the
// send to the complete answer, on the monotonic clock.
type AdapterLoadResult struct {
	Route   string
	Status  int
	Elapsed time.Duration
}

// ParseAdapterLoads reads NAME=PATH,... (as --load-adapters takes it):
// each name given once, neither empty nor "base" (the base model is
// always loaded), each path non-empty. The path is everything after the
// first "=".
func ParseAdapterLoads(s string) ([]AdapterLoad, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("want NAME=PATH,..., got nothing")
	}
	var loads []AdapterLoad
	for _, item := range strings.Split(s, ",") {
		name, path, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok {
			return nil, fmt.Errorf("want NAME=PATH, got %q", item)
		}
		loads = append(loads, AdapterLoad{Name: strings.TrimSpace(name), Path: strings.TrimSpace(path)})
	}
	return loads, CheckAdapterLoads(loads)
}

// CheckAdapterLoads refuses an adapter without a name or a path, one
// named "base", and a name given twice.
func CheckAdapterLoads(loads []AdapterLoad) error {
	seen := map[string]bool{}
	for _, a := range loads {
		switch {
		case a.Name == "":
			return fmt.Errorf("an adapter without a name (path %q)", a.Path)
		case a.Name == schedule.BaseAdapter:
			return fmt.Errorf("%q is the base model, which needs no loading", a.Name)
		case a.Path == "":
			return fmt.Errorf("adapter %q: want a path, got nothing", a.Name)
		case seen[a.Name]:
			return fmt.Errorf("adapter %q given twice", a.Name)
		}
		seen[a.Name] = true
	}
	return nil
}

// AdapterLoadRoute is the route c loads an adapter through, chosen by its
// AdapterForm: vLLM's /v1/load_lora_adapter for AdapterByName, SGLang's
// /load_lora_adapter for AdapterBaseColon.
func (c *Client) AdapterLoadRoute() string {
	if c.AdapterForm == AdapterBaseColon {
		return RouteLoadAdapterSGLang
	}
	return RouteLoadAdapterVLLM
}

// LoadAdapter POSTs a's load call to the engine (AdapterLoadRoute, with
// c's API key and headers) and waits for the complete answer, at most
// timeout (DefaultAdapterLoadTimeout when 0). The result is filled in
// also when the load fails; the error then names the adapter, the route,
// the status and the engine's own message, with secrets redacted.
func (c *Client) LoadAdapter(ctx context.Context, a AdapterLoad, timeout time.Duration) (AdapterLoadResult, error) {
	return c.adapterCall(ctx, "load", c.AdapterLoadRoute(), a.Name, map[string]string{"lora_name": a.Name, "lora_path": a.Path}, timeout)
}

// AdapterUnloadRoute is the route c unloads an adapter through: vLLM's
// /v1/unload_lora_adapter for AdapterByName, SGLang's /unload_lora_adapter
// for AdapterBaseColon.
func (c *Client) AdapterUnloadRoute() string {
	if c.AdapterForm == AdapterBaseColon {
		return RouteUnloadAdapterSGLang
	}
	return RouteUnloadAdapterVLLM
}

// UnloadAdapter POSTs the unload call of the adapter named name
// (AdapterUnloadRoute, body {"lora_name": NAME}), as LoadAdapter does the
// load: it leaves the engine as it was before a run loaded the adapter.
func (c *Client) UnloadAdapter(ctx context.Context, name string, timeout time.Duration) (AdapterLoadResult, error) {
	return c.adapterCall(ctx, "unload", c.AdapterUnloadRoute(), name, map[string]string{"lora_name": name}, timeout)
}

// adapterCall POSTs one adapter call (verb names it in errors) and times
// it from send to complete answer.
func (c *Client) adapterCall(ctx context.Context, verb, route, name string, fields map[string]string, timeout time.Duration) (AdapterLoadResult, error) {
	res := AdapterLoadResult{Route: route}
	if timeout <= 0 {
		timeout = DefaultAdapterLoadTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	body, err := json.Marshal(fields)
	if err != nil {
		return res, err
	}
	what := fmt.Sprintf("%s adapter %q: POST %s", verb, name, route)
	base := strings.TrimSuffix(strings.TrimRight(c.BaseURL, "/"), "/v1")
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+route, bytes.NewReader(body))
	if err != nil {
		return res, fmt.Errorf("%s: %s", what, c.redactMessage(err.Error()))
	}
	c.setHeaders(req.Header)
	req.Header.Set("Content-Type", "application/json")
	start := time.Now()
	resp, err := c.send(req, payload{head: body, size: int64(len(body))})
	if err != nil {
		res.Elapsed = time.Since(start)
		return res, c.adapterTransportError(what, timeout, err)
	}
	answer, readErr := io.ReadAll(io.LimitReader(resp.Body, preflightBodyBytes))
	_ = resp.Body.Close()
	res.Elapsed, res.Status = time.Since(start), resp.StatusCode
	switch {
	case readErr != nil:
		return res, fmt.Errorf("%s: HTTP %d, reading the answer: %s", what, resp.StatusCode, c.redactMessage(readErr.Error()))
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return res, fmt.Errorf("%s: HTTP %d: %s", what, resp.StatusCode, oneline.Shorten(c.redactMessage(loadErrorMessage(answer))))
	}
	return res, nil
}

// adapterTransportError names an adapter call (what) that got no answer.
func (c *Client) adapterTransportError(what string, timeout time.Duration, err error) error {
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("%s: the engine refused the connection (%w)", what, syscall.ECONNREFUSED)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s: no answer within %v (--adapter-load-timeout)", what, timeout)
	}
	return fmt.Errorf("%s: %s", what, c.redactMessage(err.Error()))
}

// loadErrorMessage is the engine's message in a failed load's answer:
// SGLang's {"success": false, "error_message": ...}, else an OpenAI-style
// error as vLLM writes it.
func loadErrorMessage(body []byte) string {
	var sg struct {
		ErrorMessage string `json:"error_message"`
	}
	if json.Unmarshal(body, &sg) == nil && sg.ErrorMessage != "" {
		return sg.ErrorMessage
	}
	return serverMessage(body)
}
