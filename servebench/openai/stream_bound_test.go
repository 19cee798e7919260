package openai_test

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench/record"
)

// boundRow asks for 16 tokens: the stream may send 16 + 16/4 + 16 = 36
// generated events.
func boundRow() *record.Request {
	r := chatRow()
	r.MaxTokens = 16
	return r
}

// floodServer streams n content events of text, then [DONE]; it reports
// how many it managed to write.
func floodServer(t *testing.T, n int, text string) (*ssetest.Server, *atomic.Int64) {
	written := new(atomic.Int64)
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		ev := "data: " + ssetest.ChatContent(text) + "\n\n"
		for range n {
			if _, err := w.RW.Write([]byte(ev)); err != nil {
				return
			}
			written.Add(1)
		}
		w.Event(ssetest.ChatFinish("length"))
		w.Done()
	})
	return srv, written
}

func TestClientStreamAtItsEventBoundIsASuccess(t *testing.T) {
	srv, _ := floodServer(t, 36, "x")
	out := sendRow(t, srv, chatClient(), boundRow())
	wantStatus(t, out, record.StatusSuccess)
	if len(out.ContentMS) != 36 {
		t.Errorf("%d content events, want 36", len(out.ContentMS))
	}
}

func TestClientStreamPastItsEventBoundIsAProtocolViolation(t *testing.T) {
	srv, _ := floodServer(t, 37, "x")
	out := sendRow(t, srv, chatClient(), boundRow())
	wantStatus(t, out, record.StatusStreamError)
	wantContains(t, "error", out.Error, "protocol violation: more than 36 generated events for max_tokens 16")
	if len(out.ContentMS) != 37 {
		t.Errorf("%d content events recorded, want the 37 read before the stream was ended", len(out.ContentMS))
	}
}

// TestClientStreamFloodIsEndedAndBounded: a server that would send two
// million events for max_tokens 16 is cut off; the record holds only the
// events up to the bound, and the server could not write them all.
func TestClientStreamFloodIsEndedAndBounded(t *testing.T) {
	const flood = 2_000_000
	srv, written := floodServer(t, flood, "word")
	c := chatClient()
	c.KeepText = true
	out := sendRow(t, srv, c, boundRow())
	wantStatus(t, out, record.StatusStreamError)
	wantContains(t, "error", out.Error, "protocol violation")
	if len(out.ContentMS) != 37 || out.Text == nil || len(*out.Text) != 37*len("word") {
		t.Errorf("%d content events and %d bytes of text kept, want 37 and %d", len(out.ContentMS), len(deref(out.Text)), 37*len("word"))
	}
	srv.CloseClientConnections()
	srv.Close() // waits for the handler
	if n := written.Load(); n >= flood {
		t.Errorf("the server wrote all %d events: the client read the whole flood", n)
	}
}

// TestClientStreamTextBeyondItsByteBoundIsAProtocolViolation: a few
// events carrying megabytes of text break the bound of 1 KiB per allowed
// event, at least 1 MiB (36 KiB for max_tokens 16, so 1 MiB).
func TestClientStreamTextBeyondItsByteBoundIsAProtocolViolation(t *testing.T) {
	srv, _ := floodServer(t, 3, strings.Repeat("y", 600<<10))
	c := chatClient()
	c.KeepText = true
	out := sendRow(t, srv, c, boundRow())
	wantStatus(t, out, record.StatusStreamError)
	wantContains(t, "error", out.Error, "protocol violation: more than 1048576 bytes of generated text for max_tokens 16")
	if len(out.ContentMS) != 2 {
		t.Errorf("%d content events, want 2 (the second one broke the bound)", len(out.ContentMS))
	}
}

func deref[T any](p *T) T {
	var zero T
	if p != nil {
		return *p
	}
	return zero
}
