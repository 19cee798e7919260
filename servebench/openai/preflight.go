package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/servebench/servebench/internal/oneline"
	"github.com/servebench/servebench/internal/redact"
	"github.com/servebench/servebench/servebench/record"
)

// preflightModelsTimeout bounds the GET /v1/models of a preflight, and
// preflightProbeTokens the probe request's output.
const (
	preflightModelsTimeout = 30 * time.Second
	preflightProbeTokens   = 8
	preflightBodyBytes     = 1 << 20 // the longest model list read
)

// ValidateBaseURL checks an engine's root URL before anything is sent: an
// absolute http or https URL with a host, and no user information (a
// password in a URL would be written into records and reports), query or
// fragment.
func ValidateBaseURL(raw string) error {
	shown := redact.URL(raw)
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("base URL %q: not a URL", shown)
	}
	switch {
	case u.User != nil:
		return fmt.Errorf("base URL %q: user information (user:password@) is refused: it would be written into every output; give the key with --api-key-env or a --header", shown)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("base URL %q: want an http:// or https:// URL", shown)
	case u.Host == "" || u.Hostname() == "":
		return fmt.Errorf("base URL %q: no host", shown)
	case u.RawQuery != "" || u.ForceQuery:
		return fmt.Errorf("base URL %q: no query string allowed", shown)
	case u.Fragment != "":
		return fmt.Errorf("base URL %q: no fragment allowed", shown)
	}
	return nil
}

// ValidateHeader checks one HTTP header a Client's transport adds: a valid
// field name, and a value without control characters (a CR or LF would
// split the request). It is record.ValidateHeader.
func ValidateHeader(name, value string) error { return record.ValidateHeader(name, value) }

// PreflightReport is what Preflight found.
type PreflightReport struct {
	// ServedModels lists the ids GET /v1/models returned; nil when the
	// engine has no /v1/models.
	ServedModels []string
	// Notes says what was not checked and why (an engine without
	// /v1/models).
	Notes []string
	// Probe is the probe request's record.
	Probe *record.Outcome
}

// Preflight checks, before any load, that c can serve the run: its base
// URL is valid, GET /v1/models lists c.Model (an engine that answers 404
// or 405 there has no model list; that is noted and the check passes), and
// one probe request (probe, its output capped at 8 tokens) succeeds. The
// error names what failed: the models served, or the probe's status and
// the engine's own message.
func Preflight(ctx context.Context, c *Client, probe record.Request) (*PreflightReport, error) {
	rep, err := CheckServedModel(ctx, c)
	if err != nil {
		return rep, err
	}
	probe.ID, probe.MaxTokens = "preflight", min(probe.MaxTokens, preflightProbeTokens)
	out := &record.Outcome{ID: "preflight", Attempt: 1}
	c.Do(ctx, time.Now(), &probe, "preflight", out)
	rep.Probe = out
	if out.Status != record.StatusSuccess {
		return rep, fmt.Errorf("probe request failed (%s): %s", out.Status, out.Error)
	}
	return rep, nil
}

// CheckServedModel is Preflight without the probe: it validates c's base
// URL and checks that GET /v1/models lists c.Model (a name without a tag
// also matches its ":latest", as Ollama serves "tiny" as "tiny:latest"). An engine that answers
// 404 or 405 there has no model list; that is noted and the check passes.
// Nothing is generated, so it leaves no trace in the engine's metrics.
func CheckServedModel(ctx context.Context, c *Client) (*PreflightReport, error) {
	if err := ValidateBaseURL(c.BaseURL); err != nil {
		return nil, err
	}
	rep := &PreflightReport{}
	models, note, err := c.servedModels(ctx)
	if err != nil {
		return rep, err
	}
	if note != "" {
		rep.Notes = append(rep.Notes, note)
		return rep, nil
	}
	rep.ServedModels = models
	if !modelListed(models, c.Model) {
		served := strings.Join(models, ", ")
		if served == "" {
			served = "none"
		}
		return rep, fmt.Errorf("model %q is not served here; served: %s", c.Model, served)
	}
	return rep, nil
}

// servedModels reads GET /v1/models. note is set, and err nil, when the
// engine has no such endpoint (404 or 405).
func (c *Client) servedModels(ctx context.Context) (models []string, note string, err error) {
	ctx, cancel := context.WithTimeout(ctx, preflightModelsTimeout)
	defer cancel()
	base := strings.TrimSuffix(strings.TrimRight(c.BaseURL, "/"), "/v1")
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/v1/models", nil)
	if err != nil {
		return nil, "", fmt.Errorf("GET /v1/models: %v", err)
	}
	c.setHeaders(req.Header)
	resp, err := c.send(req, payload{})
	if errors.Is(err, syscall.ECONNREFUSED) {
		return nil, "", fmt.Errorf("GET /v1/models: %s refused the connection: the port is closed, nothing listens there (%w)", redact.URL(base), syscall.ECONNREFUSED)
	}
	if err != nil {
		return nil, "", fmt.Errorf("GET /v1/models: %s", c.redactMessage(err.Error()))
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(io.LimitReader(resp.Body, preflightBodyBytes))
	if err != nil {
		return nil, "", fmt.Errorf("GET /v1/models: reading the answer: %v", err)
	}
	switch {
	case isRedirect(resp.StatusCode):
		return nil, "", fmt.Errorf("GET /v1/models: %w: %s", ErrRedirect, redirectMessage(resp.Request.URL, resp))
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusMethodNotAllowed:
		return nil, fmt.Sprintf("GET /v1/models answered HTTP %d: the engine does not list its models, so the model name was not checked", resp.StatusCode), nil
	case resp.StatusCode != http.StatusOK:
		return nil, "", fmt.Errorf("GET /v1/models: HTTP %d: %s", resp.StatusCode, oneline.Shorten(c.redactMessage(string(body))))
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, "", fmt.Errorf("GET /v1/models: the answer is not an OpenAI model list: %s", oneline.Shorten(c.redactMessage(string(body))))
	}
	models = []string{}
	for _, m := range list.Data {
		models = append(models, c.redactMessage(m.ID))
	}
	sort.Strings(models)
	return models, "", nil
}

// modelListed reports whether name is in models, a name without a tag
// also matching its ":latest" (Ollama lists "tiny:latest" and serves it as
// "tiny").
func modelListed(models []string, name string) bool {
	if slices.Contains(models, name) {
		return true
	}
	return !strings.Contains(name, ":") && slices.Contains(models, name+":latest")
}
