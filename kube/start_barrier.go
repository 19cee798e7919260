package kube

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// JobUIDVar is the container environment variable the rendered pods read
// their Job's UID into (from the label the Job controller puts on its
// pods), which names the start barrier's directory: a Job applied again
// under the same run ID waits on a barrier of its own.
const JobUIDVar = "SERVEBENCH_JOB_UID"

// jobUIDLabel is the label the Job controller sets on each of its pods to
// the Job's UID.
const jobUIDLabel = "batch.kubernetes.io/controller-uid"

// DefaultStartDelay is how long after the last shard is ready the shards
// start their measurement when no --start-at is given: time for every pod
// to see the last arrival on the shared volume, and for each shard's
// preflight and warmup.
const DefaultStartDelay = 30 * time.Second

// DefaultBarrierTimeout bounds the wait for the other shards: a shard
// whose pod never starts (unschedulable, an image that does not pull)
// fails the others after this long instead of holding them for ever.
const DefaultBarrierTimeout = 30 * time.Minute

// barrierPoll is how often a waiting shard lists the barrier.
const barrierPoll = 250 * time.Millisecond

// Barrier is the relative start of a sharded run: each shard, once its pod
// is running (its workload unpacked), writes the instant it arrived into
// Dir, a directory on the volume every shard mounts, and waits until all
// Shards have; they start at the latest arrival plus Delay. Every shard
// reads the same files, so every shard computes the same instant, and no
// instant is fixed when the manifest is rendered.
type Barrier struct {
	// Dir holds one file per arrived shard, shard-K, its arrival instant
	// (RFC 3339).
	Dir string
	// Shards is N, and Index this shard's K (0 ≤ K < N).
	Shards, Index int
	// Delay is the time from the last arrival to the start.
	Delay time.Duration
	// Timeout bounds the wait for the others (0: DefaultBarrierTimeout).
	Timeout time.Duration
}

// Wait records this shard's arrival, waits for every other shard's, and
// returns the common start instant. It fails when the others have not all
// arrived within Timeout (naming the missing shards), or when the start
// has passed by the time this shard sees the last arrival (the volume
// showed it late: give a longer Delay).
func (b Barrier) Wait(ctx context.Context) (time.Time, error) {
	if b.Shards < 1 || b.Index < 0 || b.Index >= b.Shards {
		return time.Time{}, fmt.Errorf("start barrier: shard %d of %d: want 0 ≤ index < shards", b.Index, b.Shards)
	}
	if b.Delay <= 0 {
		return time.Time{}, fmt.Errorf("start barrier: --start-delay %v: want a positive duration", b.Delay)
	}
	if err := b.arrive(time.Now()); err != nil {
		return time.Time{}, err
	}
	timeout := b.Timeout
	if timeout <= 0 {
		timeout = DefaultBarrierTimeout
	}
	deadline := time.Now().Add(timeout)
	for {
		arrivals, missing, err := b.arrivals()
		if err != nil {
			return time.Time{}, err
		}
		if len(missing) == 0 {
			start := slices.MaxFunc(arrivals, time.Time.Compare).Add(b.Delay)
			if !time.Now().Before(start) {
				return time.Time{}, fmt.Errorf("start barrier: shard %d saw the last arrival after the start instant %s had passed; give a longer --start-delay than %v",
					b.Index, start.UTC().Format(time.RFC3339Nano), b.Delay)
			}
			return start, nil
		}
		if time.Now().After(deadline) {
			return time.Time{}, fmt.Errorf("start barrier: after %v, shards %s of %d have not arrived in %s (are their pods running?)",
				timeout, joinInts(missing), b.Shards, b.Dir)
		}
		select {
		case <-ctx.Done():
			return time.Time{}, fmt.Errorf("start barrier: %w", ctx.Err())
		case <-time.After(barrierPoll):
		}
	}
}

// arrive writes this shard's arrival instant, atomically: a shard that
// reads the file reads all of it.
func (b Barrier) arrive(at time.Time) error {
	if err := os.MkdirAll(b.Dir, 0o755); err != nil {
		return fmt.Errorf("start barrier: %w", err)
	}
	final := filepath.Join(b.Dir, "shard-"+strconv.Itoa(b.Index))
	tmp := final + ".tmp"
	if err := os.WriteFile(tmp, []byte(at.UTC().Format(time.RFC3339Nano)+"\n"), 0o644); err != nil {
		return fmt.Errorf("start barrier: %w", err)
	}
	if err := os.Rename(tmp, final); err != nil {
		return fmt.Errorf("start barrier: %w", err)
	}
	return nil
}

// arrivals reads the arrival instants written so far, and lists the
// shards that have not arrived.
func (b Barrier) arrivals() (at []time.Time, missing []int, err error) {
	for k := range b.Shards {
		path := filepath.Join(b.Dir, "shard-"+strconv.Itoa(k))
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			missing = append(missing, k)
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("start barrier: %w", err)
		}
		t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(data)))
		if err != nil {
			return nil, nil, fmt.Errorf("start barrier: %s: want an RFC 3339 instant, got %q", path, data)
		}
		at = append(at, t)
	}
	return at, missing, nil
}

// joinInts writes 1, 2 and 3.
func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
