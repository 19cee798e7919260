package servebench_test

import (
	"context"
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/score"
)

// TestRunWhoseRequestsNeverReachTheEngineIsNotValid: requests that never
// obtained a connection (refused, a TLS handshake against a plain HTTP
// port, an address that cannot be dialled) were not delivered load, so the run
// is not valid and its reason counts them.
func TestRunWhoseRequestsNeverReachTheEngineIsNotValid(t *testing.T) {
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("a request reached the plain server over plain HTTP")
	}))
	t.Cleanup(plain.Close)
	for name, baseURL := range map[string]string{
		"connection refused":            ssetest.ClosedPortURL(t),
		"TLS to a plain port":           "https://" + strings.TrimPrefix(plain.URL, "http://"),
		"a port that cannot be dialled": "http://127.0.0.1:99999",
	} {
		t.Run(name, func(t *testing.T) {
			c := &openai.Client{BaseURL: baseURL, Model: "m", Endpoint: record.EndpointCompletions}
			c.HTTPClient = &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{}}}
			res, err := servebench.Run(context.Background(), servebench.RunConfig{
				Workload: workloadOf(t, `{"id":"a","prompt":"p","max_tokens":4}
{"id":"b","prompt":"q","max_tokens":4}
`),
				Arrival: constant(t, 100), Count: 3, Client: c, OutputDir: t.TempDir(),
			})
			if err != nil {
				t.Fatal(err)
			}
			rep := res.Report
			if rep.Valid {
				t.Fatalf("a run whose 3 requests never reached the engine is valid: %v", rep.InvalidReasons)
			}
			want := "3 of 3 offered requests never reached the engine"
			if !strings.Contains(strings.Join(rep.InvalidReasons, "; "), want) {
				t.Errorf("invalid reasons %q, want one saying %q", rep.InvalidReasons, want)
			}
			if rep.LoadDelivered() == nil {
				t.Error("LoadDelivered() is nil (the CLI would exit 0)")
			}
			again, err := score.RunDir(res.Dir, score.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if again.Valid {
				t.Error("re-scoring the run directory makes it valid")
			}
		})
	}
}
