package report

import (
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
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

// ThroughputRate is one of the rates a report gives for its API: a count
// over successful requests divided by the cohort's horizon.
type ThroughputRate struct {
	// Unit names the rate, such as "items/s".
	Unit record.ThroughputUnit `json:"unit"`
	// Count is what was counted (requests, items, documents or tokens);
	// Reported is how many successful requests reported it (a token count
	// is only known from a server's usage).
	Count    int `json:"count"`
	Reported int `json:"reported"`
	// PerSecond is Count divided by the horizon in seconds.
	PerSecond float64 `json:"per_second"`
}
