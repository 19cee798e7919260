package servebench_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// writeShardSchedules writes the schedule.json of each of n shards of the
// run runID into its own directory under root, and returns the
// directories.
func writeShardSchedules(t *testing.T, root, runID string, n int) []string {
	t.Helper()
	w := workloadOf(t, `{"id":"a","prompt":"one","max_tokens":2}
{"id":"b","prompt":"two","max_tokens":2}
`)
	full, err := schedule.Build(schedule.Plan{Workload: w, Arrival: constant(t, 10), Count: 6, RunID: runID})
	if err != nil {
		t.Fatal(err)
	}
	dirs := make([]string, n)
	for k := range n {
		dirs[k] = filepath.Join(root, fmt.Sprintf("shard-%d", k))
		if err := os.MkdirAll(dirs[k], 0o755); err != nil {
			t.Fatal(err)
		}
		s, err := full.ForShard(schedule.Shard{Index: k, Count: n})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := schedule.Write(filepath.Join(dirs[k], record.ScheduleFile), s); err != nil {
			t.Fatal(err)
		}
	}
	return dirs
}

// TestMergeRehashesEveryShardAndComparesRunIDs: a schedule.json edited
// after the run, and a shard of another run, are refused in each position
// of the argument list, naming the shard.
func TestMergeRehashesEveryShardAndComparesRunIDs(t *testing.T) {
	const runID, otherID = "0193a5a0-0000-7000-8000-0000000000c1", "0193a5a0-0000-7000-8000-0000000000c2"
	for p := range 3 {
		t.Run(fmt.Sprintf("edited schedule at position %d", p), func(t *testing.T) {
			dirs := writeShardSchedules(t, t.TempDir(), runID, 3)
			path := filepath.Join(dirs[p], record.ScheduleFile)
			s, _, err := schedule.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			s.Entries[len(s.Entries)-1].ScheduledMS += 1 // the shard section keeps the old hash
			if _, err := schedule.Write(path, s); err != nil {
				t.Fatal(err)
			}
			_, err = servebench.MergeShards(dirs, filepath.Join(t.TempDir(), "m"), score.Options{})
			want := "merge: " + dirs[p] + ": schedule.json was changed after the run"
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("error %v; want %q", err, want)
			}
		})
		t.Run(fmt.Sprintf("another run's shard at position %d", p), func(t *testing.T) {
			dirs := writeShardSchedules(t, t.TempDir(), runID, 3)
			other := writeShardSchedules(t, t.TempDir(), otherID, 3)
			dirs[p] = other[p]
			_, err := servebench.MergeShards(dirs, filepath.Join(t.TempDir(), "m"), score.Options{})
			first, second, a, b := dirs[0], dirs[p], runID, otherID
			if p == 0 {
				second, a, b = dirs[1], otherID, runID
			}
			want := fmt.Sprintf("merge: %s and %s belong to different runs (run_id %s vs %s)", first, second, a, b)
			if err == nil || err.Error() != want {
				t.Fatalf("error %v; want %q", err, want)
			}
		})
	}
	// Untouched shards of one run pass these checks.
	dirs := writeShardSchedules(t, t.TempDir(), runID, 3)
	if _, err := servebench.MergeShards(dirs, filepath.Join(t.TempDir(), "m"), score.Options{}); err != nil &&
		(strings.Contains(err.Error(), "changed after the run") || strings.Contains(err.Error(), "different runs")) {
		t.Fatalf("untouched shards refused: %v", err)
	}
}
