package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/servebench/servebench/servebench/schedule"

	"github.com/google/uuid"
	"github.com/servebench/servebench/servebench"
)

// shardFlags are the run flags of a sharded run: which share to send, the
// run ID the shards share, and the common start instant.
type shardFlags struct {
	shard, startAt, runID string
}

func (f *shardFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.shard, "shard", "", "send shard K of N of the schedule (K/N, from 0), or env/N to read K from "+schedule.ShardIndexEnv)
	fs.StringVar(&f.startAt, "start-at", "", "wall-clock instant (RFC 3339) the measurement starts; warmup runs before it")
	fs.StringVar(&f.runID, "run-id", "", "run ID (a UUID); shards of one run must share it (default: a new UUIDv7)")
}

// apply sets the run's shard, start instant and run ID.
func (f *shardFlags) apply(s *servebench.Settings) error {
	if f.runID != "" {
		if _, err := uuid.Parse(f.runID); err != nil {
			return fmt.Errorf("--run-id: want a UUID, got %q", f.runID)
		}
	}
	s.RunID = f.runID
	if f.startAt != "" {
		at, err := time.Parse(time.RFC3339Nano, f.startAt)
		if err != nil {
			return fmt.Errorf("--start-at: want an RFC 3339 instant such as 2026-11-30T12:00:00Z, got %q", f.startAt)
		}
		s.StartAt = at
	}
	if f.shard == "" {
		return nil
	}
	k, err := schedule.ParseShard(f.shard, os.Getenv)
	if err != nil {
		return fmt.Errorf("--shard: %w", err)
	}
	if f.runID == "" {
		return errors.New("--shard: give --run-id too: every shard of a run realizes the same schedule, run ID included")
	}
	if f.startAt == "" && k.Count > 1 {
		return errors.New("--shard: give --start-at too: the shards of a run start their measurement together")
	}
	s.Shard = &k
	return nil
}
