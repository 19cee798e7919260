package openai

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/servebench/servebench/internal/oneline"
)

// The routes that empty an engine's prefix cache: vLLM's (served only when
// the server runs with VLLM_SERVER_DEV_MODE=1) and SGLang's. Both take a
// POST without a body and answer 200 when the cache was emptied.
const (
	RouteResetPrefixCacheVLLM = "/reset_prefix_cache"
	RouteFlushCacheSGLang     = "/flush_cache"
)

// VLLMDevModeEnv is the environment variable that makes vLLM serve
// RouteResetPrefixCacheVLLM (and its other development routes).
const VLLMDevModeEnv = "VLLM_SERVER_DEV_MODE"

// DefaultPrefixCacheResetTimeout bounds one reset call.
const DefaultPrefixCacheResetTimeout = 60 * time.Second

// PrefixCacheResetRoutes are the routes ResetPrefixCache tries for an
// engine kind, in order: vLLM's alone for "vllm" and for the simulated
// engine (which speaks vLLM's names), SGLang's alone for "sglang", and
// both, vLLM's first, for any other kind or an unknown one ("").
func PrefixCacheResetRoutes(kind string) []string {
	switch kind {
	case "vllm", "simengine":
		return []string{RouteResetPrefixCacheVLLM}
	case "sglang":
		return []string{RouteFlushCacheSGLang}
	}
	return []string{RouteResetPrefixCacheVLLM, RouteFlushCacheSGLang}
}

// ResetPrefixCache empties the engine's prefix cache: it POSTs the first
// of PrefixCacheResetRoutes(kind) (with c's API key and headers) and,
// while the engine answers 404 or 405 (a route it does not serve), the
// next. It returns the route that answered 2xx. An empty kind with an
// AdapterForm of AdapterBaseColon counts as SGLang. The error gives every
// route's answer (status and the engine's message, secrets redacted) and,
// where vLLM's route was tried, says that vLLM serves it only with
// VLLM_SERVER_DEV_MODE=1.
func (c *Client) ResetPrefixCache(ctx context.Context, kind string) (string, error) {
	if kind == "" && c.AdapterForm == AdapterBaseColon {
		kind = "sglang"
	}
	routes := PrefixCacheResetRoutes(kind)
	var answers []string
	for i, route := range routes {
		status, answer, err := c.postEmpty(ctx, route)
		if err == nil && status >= 200 && status <= 299 {
			return route, nil
		}
		if err != nil {
			answers = append(answers, fmt.Sprintf("POST %s: %v", route, err))
			break // no answer at all: the next route would fare no better
		}
		answers = append(answers, fmt.Sprintf("POST %s: HTTP %d: %s", route, status, answer))
		if i+1 < len(routes) && status != http.StatusNotFound && status != http.StatusMethodNotAllowed {
			break // the engine serves the route and refused the reset
		}
	}
	msg := "reset the prefix cache: " + strings.Join(answers, "; ")
	if routes[0] == RouteResetPrefixCacheVLLM {
		msg += "; vLLM serves " + RouteResetPrefixCacheVLLM + " only when it runs with " + VLLMDevModeEnv + "=1 in its environment"
	}
	return "", errors.New(msg)
}

// postEmpty POSTs an empty body to route under the engine's root and reads
// the answer's status and message.
func (c *Client) postEmpty(ctx context.Context, route string) (int, string, error) {
	ctx, cancel := context.WithTimeout(ctx, DefaultPrefixCacheResetTimeout)
	defer cancel()
	base := strings.TrimSuffix(strings.TrimRight(c.BaseURL, "/"), "/v1")
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+route, http.NoBody)
	if err != nil {
		return 0, "", errors.New(c.redactMessage(err.Error()))
	}
	c.setHeaders(req.Header)
	resp, err := c.send(req, payload{})
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return 0, "", fmt.Errorf("no answer within %v", DefaultPrefixCacheResetTimeout)
		}
		return 0, "", errors.New(c.redactMessage(err.Error()))
	}
	body, readErr := io.ReadAll(io.LimitReader(resp.Body, preflightBodyBytes))
	_ = resp.Body.Close()
	if readErr != nil {
		return resp.StatusCode, "", fmt.Errorf("HTTP %d, reading the answer: %s", resp.StatusCode, c.redactMessage(readErr.Error()))
	}
	answer := oneline.Shorten(c.redactMessage(serverMessage(body)))
	if answer == "" {
		answer = "(empty answer)"
	}
	return resp.StatusCode, answer, nil
}
