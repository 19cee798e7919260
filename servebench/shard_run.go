package servebench

import (
	"context"
	"fmt"
	"time"

	"github.com/servebench/servebench/internal/sleep"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// shardTiming records where a shard's measurement started; nil for a run
// that is not a shard.
func shardTiming(s *schedule.Schedule, startAt, started time.Time) *report.ShardTiming {
	if s.Shard == nil {
		return nil
	}
	t := &report.ShardTiming{Shard: s.Shard.Shard, Scheduled: len(s.Entries)}
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
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	sleep.Until(ctx, timer, at)
	return nil
}
