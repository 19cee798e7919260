package containers

import (
	"testing"
	"time"
)

// A start asked for at t0, pulled for 4 s, started at t0 + 5 s, ready at
// t0 + 65 s, with its first token at t0 + 68.5 s: started_ms 5000, pull_ms
// 4000, ready_ms 60000 and first_token_ms 63500 (both from the start).
func TestEngineStartCountsFromTheStart(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := EngineStart(StartTimes{Requested: t0, Pull: 4 * time.Second, Started: t0.Add(5 * time.Second), Ready: t0.Add(65 * time.Second)},
		t0.Add(68500*time.Millisecond))
	if s.StartedAt != "2026-01-02T03:04:10Z" || s.StartedMS != 5000 || s.PullMS == nil || *s.PullMS != 4000 || *s.ReadyMS != 60000 || s.FirstTokenMS == nil || *s.FirstTokenMS != 63500 {
		t.Fatalf("got %+v", s)
	}
	if s := EngineStart(StartTimes{Requested: t0, Started: t0, Ready: t0.Add(time.Second)}, time.Time{}); s.PullMS != nil || s.FirstTokenMS != nil || *s.ReadyMS != 1000 {
		t.Fatalf("no pull, no token: %+v", s)
	}
}

// An engine that did not time its start is read from its cold start: it
// started ColdStart before the start call returned and was ready then.
func TestStartTimesOfFallsBackToTheColdStart(t *testing.T) {
	returned := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	got := StartTimesOf(fixedEngine{cold: 30 * time.Second}, returned)
	want := StartTimes{Requested: returned.Add(-30 * time.Second), Started: returned.Add(-30 * time.Second), Ready: returned}
	if got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}
