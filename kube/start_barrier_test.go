package kube_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/servebench/servebench/kube"
)

// Three shards arriving at different times all find the same start: the
// last arrival plus the delay, and each wrote its own arrival file.
func TestBarrierGivesEveryShardTheSameStart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "barrier")
	starts := make([]time.Time, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for k := range 3 {
		wg.Go(func() {
			time.Sleep(time.Duration(k) * 150 * time.Millisecond)
			starts[k], errs[k] = kube.Barrier{Dir: dir, Shards: 3, Index: k, Delay: 2 * time.Second}.Wait(context.Background())
		})
	}
	wg.Wait()
	var last time.Time
	for k := range 3 {
		if errs[k] != nil {
			t.Fatalf("shard %d: %v", k, errs[k])
		}
		data, err := os.ReadFile(filepath.Join(dir, "shard-"+string(rune('0'+k))))
		if err != nil {
			t.Fatal(err)
		}
		at, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(data)))
		if err != nil {
			t.Fatal(err)
		}
		if at.After(last) {
			last = at
		}
	}
	for k := range 3 {
		if !starts[k].Equal(last.Add(2 * time.Second)) {
			t.Errorf("shard %d starts at %v, want the last arrival %v + 2s", k, starts[k], last)
		}
	}
}

// A shard that never arrives fails the others after the timeout, naming
// it and where they waited.
func TestBarrierNamesTheShardsThatNeverArrived(t *testing.T) {
	dir := t.TempDir()
	_, err := kube.Barrier{Dir: dir, Shards: 4, Index: 1, Delay: time.Second, Timeout: 300 * time.Millisecond}.Wait(context.Background())
	want := "start barrier: after 300ms, shards 0, 2 and 3 of 4 have not arrived in " + dir + " (are their pods running?)"
	if err == nil || err.Error() != want {
		t.Errorf("error %v\nwant %s", err, want)
	}
}

// A shard that sees the last arrival after the start has passed (a delay
// too short for the volume to show it) fails, naming --start-delay.
func TestBarrierRefusesAStartThatHasPassed(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "shard-0"), []byte("2026-01-01T00:00:00Z\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := kube.Barrier{Dir: dir, Shards: 2, Index: 1, Delay: time.Nanosecond}.Wait(context.Background())
	if err == nil || !strings.HasPrefix(err.Error(), "start barrier: shard 1 saw the last arrival after the start instant ") ||
		!strings.HasSuffix(err.Error(), " had passed; give a longer --start-delay than 1ns") {
		t.Errorf("error %v", err)
	}
}

func TestBarrierRefusesABadIndexOrDelay(t *testing.T) {
	for _, tc := range []struct {
		b    kube.Barrier
		want string
	}{
		{kube.Barrier{Dir: t.TempDir(), Shards: 2, Index: 2, Delay: time.Second}, "start barrier: shard 2 of 2: want 0 ≤ index < shards"},
		{kube.Barrier{Dir: t.TempDir(), Shards: 2, Index: 0}, "start barrier: --start-delay 0s: want a positive duration"},
	} {
		if _, err := tc.b.Wait(context.Background()); err == nil || err.Error() != tc.want {
			t.Errorf("error %v, want %s", err, tc.want)
		}
	}
}
