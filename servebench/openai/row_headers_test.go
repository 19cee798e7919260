package openai_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench/record"
)

// rowSecret is a row header's value, a secret like a --header's.
const rowSecret = "row-TOKEN-9876543210"

// TestClientSendsRowHeadersAndRecordsTheTenant: a row's headers reach the
// server beside the client's own (the row's value wins for the same
// name); the tenant and objective headers' values are recorded in the
// outcome; every other value, the row's and the client's, is redacted
// from what the server echoes, while the tenant's is kept.
func TestClientSendsRowHeadersAndRecordsTheTenant(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		h := w.R.Header
		w.RW.WriteHeader(http.StatusTooManyRequests)
		_, _ = fmt.Fprintf(w.RW, `{"error": {"message": "shed tenant %s objective %s token %s gateway %s"}}`,
			h.Get("X-Llm-D-Inference-Fairness-Id"), h.Get("X-Llm-D-Inference-Objective"), h.Get("X-Row-Token"), h.Get("X-Gateway-Key"))
	})
	c := secretClient()
	c.Header.Set("X-Llm-D-Inference-Fairness-Id", "client-tenant")
	row := chatRow()
	row.Headers = map[string]string{"x-llm-d-inference-fairness-id": "acme", "x-llm-d-inference-objective": "batch", "x-row-token": rowSecret}
	out := sendRow(t, srv, c, row)
	wantStatus(t, out, record.StatusRejected)
	got := srv.LastHeader()
	for name, want := range map[string]string{"X-Llm-D-Inference-Fairness-Id": "acme", "X-Llm-D-Inference-Objective": "batch",
		"X-Row-Token": rowSecret, "X-Gateway-Key": gatewaySecret} {
		if v := got.Values(name); len(v) != 1 || v[0] != want {
			t.Errorf("the server got %s %q, want %q once", name, v, want)
		}
	}
	if out.Tenant != "acme" || out.Objective != "batch" {
		t.Errorf("tenant %q objective %q, want acme and batch", out.Tenant, out.Objective)
	}
	wantContains(t, "error", out.Error, "shed tenant acme objective batch token [redacted] gateway [redacted]")
	if strings.Contains(out.Error, rowSecret[:8]) {
		t.Errorf("the error holds the row header's value: %q", out.Error)
	}
}

// TestClientTenantFromItsOwnHeaderUnderAnotherName: without the row
// giving it, the tenant is the client's header under the name the client
// declares; a row without headers records none of the default header.
func TestClientTenantFromItsOwnHeaderUnderAnotherName(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Content(ssetest.ChatContent("tenant " + w.R.Header.Get("X-Team")))
		w.Done()
	})
	c := chatClient()
	c.KeepText = true
	c.TenantHeader = "X-Team"
	c.Header = http.Header{"X-Team": {"search"}}
	out := sendRow(t, srv, c, chatRow())
	wantStatus(t, out, record.StatusSuccess)
	if out.Tenant != "search" || out.Objective != "" {
		t.Errorf("tenant %q objective %q, want search and none", out.Tenant, out.Objective)
	}
	if *out.Text != "tenant search" {
		t.Errorf("text %q: the tenant's value is recorded, not redacted", *out.Text)
	}
}
