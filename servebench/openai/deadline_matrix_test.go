package openai_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench/record"
)

// stallPhase is where a stalling server stops sending.
type stallPhase string

const (
	stallBeforeHeaders stallPhase = "before headers"
	stallBeforeContent stallPhase = "before first content"
	stallMidStream     stallPhase = "mid-stream"
)

// deadlineStall is the server's stall in the deadline tests: far longer
// than any deadline under test, so that a deadline that covers the phase
// ends the request long before the server would resume, however loaded
// the machine is.
const deadlineStall = 3 * time.Second

// stallServer streams a chat response that stalls for deadlineStall at
// phase and then completes normally. cut reports whether the client went
// away during the stall (on the server's side of the connection); it is
// final once handled has received, when the handler has returned.
func stallServer(t testing.TB, phase stallPhase) (srv *ssetest.Server, cut *atomic.Bool, handled chan struct{}) {
	cut = new(atomic.Bool)
	handled = make(chan struct{}, 1)
	stall := func(w *ssetest.Writer) bool {
		if !w.Sleep(deadlineStall) {
			cut.Store(true)
			return false
		}
		return true
	}
	srv = ssetest.New(t, func(w *ssetest.Writer) {
		defer func() {
			select {
			case handled <- struct{}{}:
			default:
			}
		}()
		if phase == stallBeforeHeaders && !stall(w) {
			return
		}
		w.StreamHeader()
		w.Event(ssetest.ChatDelta(map[string]any{"role": "assistant", "content": ""}))
		if phase == stallBeforeContent && !stall(w) {
			return
		}
		w.Content(ssetest.ChatContent("a"))
		w.Content(ssetest.ChatContent("b"))
		if phase == stallMidStream && !stall(w) {
			return
		}
		w.Content(ssetest.ChatContent("c"))
		w.Event(ssetest.ChatFinish("stop"))
		w.Done()
	})
	return srv, cut, handled
}

// deadlineCase is one combination of deadlines and what each phase's
// stall must end as ("" for a success: the deadlines do not cover it).
type deadlineCase struct {
	name                    string
	firstToken, idle, total time.Duration
	want                    map[stallPhase]record.TimeoutKind
}

// TestClientDeadlinesAgainstStallsAtEveryPhase runs each deadline alone and
// in combination against a real loopback server that stalls before its
// headers, before the first content and mid-stream. Which deadline fires is
// decided from the deadlines' definitions, not from timer luck, and when it
// was due is computed exactly from the record's own times; the only wall
// clock fact asserted is that the client hung up during a 3 s stall.
func TestClientDeadlinesAgainstStallsAtEveryPhase(t *testing.T) {
	const (
		ft    = record.TimeoutFirstToken
		idle  = record.TimeoutIdle
		total = record.TimeoutTotal
		none  = record.TimeoutKind("")
	)
	ms := time.Millisecond
	cases := []deadlineCase{
		{name: "first-token alone", firstToken: 200 * ms,
			want: map[stallPhase]record.TimeoutKind{stallBeforeHeaders: ft, stallBeforeContent: ft, stallMidStream: none}},
		// The idle clock starts at the first line: a stall before the
		// headers is not the idle deadline's to catch.
		{name: "idle alone", idle: 200 * ms,
			want: map[stallPhase]record.TimeoutKind{stallBeforeHeaders: none, stallBeforeContent: idle, stallMidStream: idle}},
		{name: "total alone", total: 300 * ms,
			want: map[stallPhase]record.TimeoutKind{stallBeforeHeaders: total, stallBeforeContent: total, stallMidStream: total}},
		// A long total deadline beside a short idle one must not delay the
		// idle one (it once fired only when the total one was due).
		{name: "idle with a long total", idle: 200 * ms, total: 5 * time.Minute,
			want: map[stallPhase]record.TimeoutKind{stallBeforeHeaders: none, stallBeforeContent: idle, stallMidStream: idle}},
		{name: "idle with a total a little longer", idle: 200 * ms, total: 1500 * ms,
			want: map[stallPhase]record.TimeoutKind{stallBeforeHeaders: total, stallBeforeContent: idle, stallMidStream: idle}},
		{name: "all three, first-token soonest", firstToken: 200 * ms, idle: time.Second, total: 2 * time.Second,
			want: map[stallPhase]record.TimeoutKind{stallBeforeHeaders: ft, stallBeforeContent: ft, stallMidStream: idle}},
		{name: "all three, idle soonest", firstToken: time.Second, idle: 200 * ms, total: 2 * time.Second,
			want: map[stallPhase]record.TimeoutKind{stallBeforeHeaders: ft, stallBeforeContent: idle, stallMidStream: idle}},
		{name: "all three, total soonest", firstToken: time.Second, idle: 600 * ms, total: 250 * ms,
			want: map[stallPhase]record.TimeoutKind{stallBeforeHeaders: total, stallBeforeContent: total, stallMidStream: total}},
	}
	for _, tc := range cases {
		for _, phase := range []stallPhase{stallBeforeHeaders, stallBeforeContent, stallMidStream} {
			t.Run(tc.name+"/"+string(phase), func(t *testing.T) {
				t.Parallel()
				srv, cut, handled := stallServer(t, phase)
				c := chatClient()
				c.FirstTokenTimeout, c.IdleTimeout, c.TotalTimeout = tc.firstToken, tc.idle, tc.total
				out := sendRow(t, srv, c, chatRow())
				select {
				case <-handled:
				case <-time.After(2 * deadlineStall):
					t.Fatal("the server's handler did not return")
				}
				checkDeadlineOutcome(t, tc, phase, out, cut.Load())
			})
		}
	}
}

// checkDeadlineOutcome asserts one stall's record against the case.
func checkDeadlineOutcome(t *testing.T, tc deadlineCase, phase stallPhase, out *record.Outcome, cut bool) {
	t.Helper()
	want := tc.want[phase]
	if want == "" {
		wantStatus(t, out, record.StatusSuccess)
		if cut {
			t.Error("the client hung up during the stall, though no deadline covers this phase")
		}
		if out.TimeoutDueMS != nil {
			t.Errorf("timeout_due_ms %v on a success", *out.TimeoutDueMS)
		}
		return
	}
	wantStatus(t, out, record.StatusTimeout)
	if *out.Timeout != want {
		t.Fatalf("deadline %s fired, want %s (error %q)", *out.Timeout, want, out.Error)
	}
	if !cut {
		t.Errorf("the server's %v stall ran to its end: the %s deadline did not end the request during it", deadlineStall, want)
	}
	if out.TimeoutDueMS == nil || out.SentMS == nil {
		t.Fatalf("timeout_due_ms %v, sent_ms %v: both must be set", show(out.TimeoutDueMS), show(out.SentMS))
	}
	due, sent := *out.TimeoutDueMS, *out.SentMS
	if out.TerminalMS < due {
		t.Errorf("terminal %.3f ms before the deadline was due (%.3f ms): the terminal time is when it fired", out.TerminalMS, due)
	}
	checkDueTime(t, tc, want, out, due, sent)
	checkPhaseReached(t, phase, want, out)
}

// checkDueTime asserts when the deadline was due, from its definition.
func checkDueTime(t *testing.T, tc deadlineCase, kind record.TimeoutKind, out *record.Outcome, due, sent float64) {
	t.Helper()
	const eps = 0.0015 // two roundings to the records' 1 µs
	switch kind {
	case record.TimeoutFirstToken:
		if want := sent + record.Millis(tc.firstToken); due < want-eps || due > want+eps {
			t.Errorf("first-token deadline due at %.3f ms, want sent + %v = %.3f ms", due, tc.firstToken, want)
		}
	case record.TimeoutIdle:
		last := sent // the role-only line, which the record does not time, came after d
		if out.LastContentMS != nil {
			last = *out.LastContentMS
		}
		want := last + record.Millis(tc.idle)
		if out.LastContentMS != nil && (due < want-eps || due > want+eps) {
			t.Errorf("idle deadline due at %.3f ms, want last line %.3f + %v = %.3f ms", due, last, tc.idle, want)
		}
		if due < want-eps {
			t.Errorf("idle deadline due at %.3f ms, before sent + %v = %.3f ms", due, tc.idle, want)
		}
	case record.TimeoutTotal:
		// The total deadline runs from the hand-over to the transport, a
		// moment before d.
		if due > sent+record.Millis(tc.total)+eps || due <= 0 {
			t.Errorf("total deadline due at %.3f ms, want (0, sent + %v = %.3f]", due, tc.total, sent+record.Millis(tc.total))
		}
	}
}

// checkPhaseReached asserts that the request got as far as the phase says.
func checkPhaseReached(t *testing.T, phase stallPhase, kind record.TimeoutKind, out *record.Outcome) {
	t.Helper()
	switch phase {
	case stallBeforeHeaders:
		wantNil(t, "HTTP status (the headers never came)", out.HTTPStatus)
		wantNil(t, "first content", out.FirstContentMS)
	case stallBeforeContent:
		if kind != record.TimeoutTotal || out.HTTPStatus != nil {
			wantInt(t, "HTTP status", out.HTTPStatus, 200)
		}
		wantNil(t, "first content", out.FirstContentMS)
	case stallMidStream:
		if kind != record.TimeoutTotal && len(out.ContentMS) != 2 {
			t.Errorf("content events %v, want the 2 sent before the stall", out.ContentMS)
		}
	}
}
