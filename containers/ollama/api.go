package ollama

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// HealthPath answers 200 ("Ollama is running") once the server listens.
const HealthPath = "/"

// apiClient bounds every call to Ollama's native API that readiness makes.
var apiClient = &http.Client{Timeout: 5 * time.Minute}

// Version asks a running Ollama for its version (GET /api/version).
func Version(ctx context.Context, baseURL string) (string, error) {
	var v struct {
		Version string `json:"version"`
	}
	if err := call(ctx, http.MethodGet, baseURL+"/api/version", nil, &v); err != nil {
		return "", err
	}
	if v.Version == "" {
		return "", fmt.Errorf("GET %s/api/version: no version in the answer", baseURL)
	}
	return v.Version, nil
}

// Preload loads model into memory and keeps it there (POST /api/generate
// with no prompt and keep_alive -1), so that the first request does not pay
// for the load.
func Preload(ctx context.Context, baseURL, model string) error {
	var r struct {
		Done       bool   `json:"done"`
		DoneReason string `json:"done_reason"`
	}
	body := map[string]any{"model": model, "keep_alive": -1, "stream": false}
	if err := call(ctx, http.MethodPost, baseURL+"/api/generate", body, &r); err != nil {
		return err
	}
	if !r.Done {
		return fmt.Errorf("POST %s/api/generate: loading %q did not finish", baseURL, model)
	}
	return nil
}

// call sends a JSON request and decodes a JSON answer; a status other than
// 200 is an error quoting the body.
func call(ctx context.Context, method, url string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := apiClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: status %s: %s", method, url, resp.Status, bytes.TrimSpace(data))
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s %s: %w", method, url, err)
	}
	return nil
}
