package schedule

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// ShardIndexEnv is the environment variable a Kubernetes Indexed Job sets to
// each pod's completion index; "--shard env/N" reads the shard index there.
const ShardIndexEnv = "JOB_COMPLETION_INDEX"

// Shard names one part of a run split across N load generators: shard
// Index of Count, counting from 0.
//
// Every shard realizes the same schedule. The schedule's arrival units (a
// single-turn request, or a whole conversation) are numbered in arrival
// order, and unit u belongs to shard u mod Count, so the shards partition
// the schedule exactly and each sees an even, interleaved share of the load.
type Shard struct {
	// Index is this shard's number, 0 <= Index < Count.
	Index int `json:"index"`
	// Count is the number of shards, at least 1.
	Count int `json:"count"`
}

// String writes the shard as K/N.
func (s Shard) String() string { return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Count) }

// Validate checks that the shard names one of Count parts.
func (s Shard) Validate() error {
	if s.Count < 1 {
		return fmt.Errorf("shard %s: the shard count must be at least 1", s)
	}
	if s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("shard %s: the index must be in [0, %d)", s, s.Count)
	}
	return nil
}

// ParseShard reads "K/N", or "env/N" where K comes from the environment
// variable ShardIndexEnv as looked up by getenv (os.Getenv in a process).
func ParseShard(text string, getenv func(string) string) (Shard, error) {
	k, n, ok := strings.Cut(text, "/")
	if !ok {
		return Shard{}, fmt.Errorf("shard %q: want K/N or env/N", text)
	}
	count, err := strconv.Atoi(n)
	if err != nil {
		return Shard{}, fmt.Errorf("shard %q: N is not an integer", text)
	}
	if k == "env" {
		k = strings.TrimSpace(getenv(ShardIndexEnv))
		if k == "" {
			return Shard{}, fmt.Errorf("shard %q: %s is unset or empty", text, ShardIndexEnv)
		}
	}
	index, err := strconv.Atoi(k)
	if err != nil {
		return Shard{}, fmt.Errorf("shard %q: K %q is not an integer", text, k)
	}
	s := Shard{Index: index, Count: count}
	return s, s.Validate()
}

// ShardHead is what a shard's schedule.json adds to the full schedule:
// which share this run sent, and the hash that every shard of the run has in
// common.
type ShardHead struct {
	Shard
	// FullSHA256 is the SHA-256 of the full schedule's bytes as
	// Write writes them without this section: the same for every
	// shard of a run, and the hash of the merged run's schedule.json.
	FullScheduleSHA256 string `json:"full_schedule_sha256"`
}

// ForShard returns a copy of the full schedule s marked as shard k of n: it
// keeps every entry (so each shard's schedule.json holds the whole run) and
// records the full schedule's hash. OwnShare then gives the part to send.
func (s *Schedule) ForShard(k Shard) (*Schedule, error) {
	if err := k.Validate(); err != nil {
		return nil, err
	}
	if s.Shard != nil {
		return nil, fmt.Errorf("schedule is already shard %s", s.Shard.Shard)
	}
	sum, err := FullSHA256(s)
	if err != nil {
		return nil, err
	}
	c := *s
	c.Shard = &ShardHead{Shard: k, FullScheduleSHA256: sum}
	return &c, nil
}

// OwnShare returns the schedule this run sends and scores: s itself when it
// is not a shard; otherwise a copy holding only the shard's entries, with
// the same window, so offered counts the shard's share and the other shards'
// requests are neither sent nor counted.
func (s *Schedule) OwnShare() *Schedule {
	if s.Shard == nil || s.whole != nil {
		return s
	}
	c := *s
	c.whole = s
	c.Entries = nil
	for u, unit := range Units(s) {
		if u%s.Shard.Count != s.Shard.Index {
			continue
		}
		for _, i := range unit {
			c.Entries = append(c.Entries, s.Entries[i])
		}
	}
	return &c
}

// Units groups entries into arrival units: an entry without a
// dependency starts a unit; its later turns follow it.
func Units(s *Schedule) [][]int {
	var units [][]int
	for i, e := range s.Entries {
		if e.DependsOn == "" || len(units) == 0 {
			units = append(units, []int{i})
			continue
		}
		last := &units[len(units)-1]
		*last = append(*last, i)
	}
	return units
}

// Full returns the schedule without its shard section, every entry
// included (also when s is a shard's share): the schedule every shard of the
// run realized.
func (s *Schedule) Full() *Schedule {
	if s.Shard == nil {
		return s
	}
	if s.whole != nil {
		return s.whole.Full()
	}
	c := *s
	c.Shard = nil
	return &c
}

// FullSHA256 hashes the bytes Write writes for s without
// its shard section.
func FullSHA256(s *Schedule) (string, error) {
	h := sha256.New()
	if err := encodeSchedule(h, s.Full()); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
