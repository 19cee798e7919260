package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
)

// slack is the tolerance allowed above a time computed from the server's
// sleeps. Lower bounds are exact (a client cannot receive bytes before the
// server writes them); upper bounds only catch gross errors, since the
// machine running the tests may be shared and loaded (.ci/flake-check.sh
// runs the suite with both cores busy). How promptly the client stamps and
// fires is measured by the benchmarks and loadcheck, not asserted here.
const slack = time.Second

// sendRow sends one request for row through c against srv and returns the
// record.
func sendRow(t *testing.T, srv *ssetest.Server, c *openai.Client, row *record.Request) *record.Outcome {
	t.Helper()
	return sendRowCtx(t, context.Background(), srv, c, row)
}

func sendRowCtx(t *testing.T, ctx context.Context, srv *ssetest.Server, c *openai.Client, row *record.Request) *record.Outcome {
	t.Helper()
	c.BaseURL = srv.URL
	out := &record.Outcome{ID: row.ID, Attempt: 1, ScheduledMS: 0, SlotMS: ptrTo(0.0)}
	c.Do(ctx, srv.Epoch, row, "run-1/"+row.ID+"/1", out)
	checkInvariants(t, out)
	return out
}

// checkInvariants asserts what every record must satisfy whatever happened.
func checkInvariants(t *testing.T, out *record.Outcome) {
	t.Helper()
	if !out.Status.Valid() {
		t.Fatalf("status %q is not a terminal status (error %q)", out.Status, out.Error)
	}
	if out.SentMS != nil && out.TerminalMS < *out.SentMS {
		t.Errorf("terminal %.3f ms before sent %.3f ms", out.TerminalMS, *out.SentMS)
	}
	for i := 1; i < len(out.ContentMS); i++ {
		if out.ContentMS[i] < out.ContentMS[i-1] {
			t.Errorf("content times not in order: %v", out.ContentMS)
		}
	}
	if len(out.ContentMS) > 0 {
		if out.FirstContentMS == nil || *out.FirstContentMS != out.ContentMS[0] ||
			out.LastContentMS == nil || *out.LastContentMS != out.ContentMS[len(out.ContentMS)-1] {
			t.Errorf("first/last content %v/%v do not match content times %v", out.FirstContentMS, out.LastContentMS, out.ContentMS)
		}
	} else if out.FirstContentMS != nil || out.LastContentMS != nil {
		t.Errorf("first/last content set without content events")
	}
	if out.EventTokens != nil && len(out.EventTokens) != len(out.ContentMS) {
		t.Errorf("%d event token counts for %d content events", len(out.EventTokens), len(out.ContentMS))
	}
	if (out.Status == record.StatusTimeout) != (out.Timeout != nil) {
		t.Errorf("status %s with timeout kind %v", out.Status, out.Timeout)
	}
	if out.Status != record.StatusSuccess && out.Error == "" {
		t.Errorf("status %s without an error message", out.Status)
	}
	if out.Status == record.StatusSuccess && out.Error != "" {
		t.Errorf("success with error %q", out.Error)
	}
	if _, err := json.Marshal(out); err != nil {
		t.Errorf("record does not marshal: %v", err)
	}
}

// wantStatus fails unless out ended with status.
func wantStatus(t *testing.T, out *record.Outcome, status record.Status) {
	t.Helper()
	if out.Status != status {
		t.Fatalf("status %q (error %q), want %q", out.Status, out.Error, status)
	}
}

// within fails unless lo <= got <= lo+slack+extra (milliseconds).
func within(t *testing.T, what string, got, lo float64) {
	t.Helper()
	hi := lo + record.Millis(slack)
	if got < lo || got > hi {
		t.Errorf("%s = %.3f ms, want within [%.3f, %.3f]", what, got, lo, hi)
	}
}

// near fails unless |got - want| <= slack (milliseconds).
func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if d := got - want; d < -record.Millis(slack) || d > record.Millis(slack) {
		t.Errorf("%s = %.3f ms, want %.3f ± %.0f", what, got, want, record.Millis(slack))
	}
}

func ptrTo[T any](v T) *T { return &v }

func show[T any](p *T) any {
	if p == nil {
		return "<nil>"
	}
	return fmt.Sprint(*p)
}

// wantInt fails unless p points to want.
func wantInt(t *testing.T, what string, p *int, want int) {
	t.Helper()
	if p == nil || *p != want {
		t.Errorf("%s = %v, want %d", what, show(p), want)
	}
}

// wantNil fails unless p is nil.
func wantNil[T any](t *testing.T, what string, p *T) {
	t.Helper()
	if p != nil {
		t.Errorf("%s = %v, want nil", what, *p)
	}
}

// contains fails unless s contains sub.
func wantContains(t *testing.T, what, s, sub string) {
	t.Helper()
	if !strings.Contains(s, sub) {
		t.Errorf("%s = %q, want it to contain %q", what, s, sub)
	}
}
