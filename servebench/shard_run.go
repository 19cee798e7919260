package servebench

import (
	"context"
	"fmt"
	"time"

	"github.com/servebench/servebench/servebench/schedule"

	"github.com/servebench/servebench/servebench/record"
)

// ShardTiming is how one shard of a run kept the common start: which share
// it sent, and how far its measurement's start instant was from the
// declared one on its own wall clock.
type ShardTiming struct {
	schedule.Shard
	// StartAt is the declared common start instant (RFC 3339), empty when
	// the run declared none.
	StartAt string `json:"start_at,omitempty"`
	// StartOffsetMS is the shard's actual start minus StartAt on the
	// shard's wall clock: the sum of its clock's offset from the others
	// and its own lateness in starting. Nil without StartAt.
	StartOffsetMS *float64 `json:"start_offset_ms"`
	// Scheduled and Sent count the shard's share and what it sent.
	Scheduled int `json:"scheduled"`
	Sent      int `json:"sent"`
	// MaxScheduleLagMS and LateCount are the shard's own schedule lag:
	// the worst send delay and the sends later than the tolerance.
	MaxScheduleLagMS *float64 `json:"max_schedule_lag_ms"`
	LateCount        int      `json:"late_count"`
	// Missing is true in a merged run when this shard's directory was not
	// given: its share is recorded as not_sent.
	Missing bool `json:"missing,omitempty"`
}

// shardTiming records where a shard's measurement started; nil for a run
// that is not a shard.
func shardTiming(s *schedule.Schedule, startAt, started time.Time) *ShardTiming {
	if s.Shard == nil {
		return nil
	}
	t := &ShardTiming{Shard: s.Shard.Shard, Scheduled: len(s.Entries)}
	if !startAt.IsZero() {
		t.StartAt = startAt.UTC().Format(time.RFC3339Nano)
		// Round(0) drops the monotonic reading: both sides on the wall clock.
		t.StartOffsetMS = new(record.Millis(started.Round(0).Sub(startAt)))
	}
	return t
}

// waitForStart sleeps until the declared start instant. An instant that
// has already passed (warmup took too long) is an error: the shards of a
// run would no longer start together. Cancellation ends the wait without an
// error, so the dispatcher records every request as not_sent.
func waitForStart(ctx context.Context, at time.Time) error {
	if at.IsZero() {
		return nil
	}
	wait := time.Until(at)
	if wait <= 0 {
		return fmt.Errorf("run: the start instant %s passed %v before warmup ended",
			at.UTC().Format(time.RFC3339Nano), (-wait).Round(time.Millisecond))
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-ctx.Done():
	}
	return nil
}
