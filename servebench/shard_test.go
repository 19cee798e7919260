package servebench_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

func TestParseShardReadsKOfNOrTheJobIndex(t *testing.T) {
	env := func(v string) func(string) string {
		return func(name string) string {
			if name == schedule.ShardIndexEnv {
				return v
			}
			return ""
		}
	}
	for _, c := range []struct {
		text, index string
		want        schedule.Shard
	}{
		{"0/1", "", schedule.Shard{Index: 0, Count: 1}},
		{"2/4", "", schedule.Shard{Index: 2, Count: 4}},
		{"env/4", "3", schedule.Shard{Index: 3, Count: 4}},
	} {
		got, err := schedule.ParseShard(c.text, env(c.index))
		if err != nil || got != c.want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", c.text, got, err, c.want)
		}
	}
	for _, c := range []struct{ text, index, wantErr string }{
		{"4/4", "", "index must be in [0, 4)"},
		{"-1/2", "", "index must be in [0, 2)"},
		{"1/0", "", "at least 1"},
		{"a/2", "", "not an integer"},
		{"2", "", "want K/N"},
		{"env/4", "", "JOB_COMPLETION_INDEX is unset"},
		{"env/4", "7", "index must be in [0, 4)"},
	} {
		if _, err := schedule.ParseShard(c.text, env(c.index)); err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("ParseShard(%q) with index %q: error %v, want one containing %q", c.text, c.index, err, c.wantErr)
		}
	}
}

// A conversation is one unit: all its turns go to the same shard, and
// units are dealt round-robin in arrival order.
func TestOwnSharesPartitionTheScheduleByUnit(t *testing.T) {
	w := workloadOf(t, `{"id":"a","prompt":"one","max_tokens":2}
{"id":"c-1","prompt":"first","max_tokens":2,"conversation":"c","turn":1}
{"id":"c-2","prompt":"second","max_tokens":2,"conversation":"c","turn":2,"think_ms":10}
{"id":"b","prompt":"two","max_tokens":2}
`)
	full, err := schedule.Build(schedule.Plan{Workload: w, Arrival: constant(t, 10), Count: 6, RunID: "0193a5a0-0000-7000-8000-000000000001"})
	if err != nil {
		t.Fatal(err)
	}
	var units [][]string // the entries' IDs grouped as the schedule's units
	for _, e := range full.Entries {
		if e.DependsOn == "" {
			units = append(units, nil)
		}
		units[len(units)-1] = append(units[len(units)-1], e.ID)
	}
	seen := map[string]int{}
	for k := range 3 {
		s, err := full.ForShard(schedule.Shard{Index: k, Count: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Entries) != len(full.Entries) {
			t.Fatalf("shard %d's schedule holds %d entries; want the full %d", k, len(s.Entries), len(full.Entries))
		}
		var want []string
		for u := k; u < len(units); u += 3 {
			want = append(want, units[u]...)
		}
		var got []string
		for _, e := range s.OwnShare().Entries {
			got = append(got, e.ID)
			seen[e.ID]++
		}
		if !slices.Equal(got, want) {
			t.Errorf("shard %d/3 sends %v; want units %d, %d, ... = %v", k, got, k, k+3, want)
		}
		if again := s.OwnShare().OwnShare(); len(again.Entries) != len(got) {
			t.Errorf("OwnShare of a share cut it again: %d entries, want %d", len(again.Entries), len(got))
		}
	}
	for _, e := range full.Entries {
		if seen[e.ID] != 1 {
			t.Errorf("entry %s is in %d shares; want exactly 1", e.ID, seen[e.ID])
		}
	}
}

// runShards runs shards of one run in-process against srv, all starting
// at one instant, and returns their directories in shard order.
func runShards(t testing.TB, srv *simengine.Server, n int, seed int64, only ...int) []string {
	t.Helper()
	w, err := schedule.ParseWorkload("w.jsonl", []byte(`{"id":"a","prompt":"check the pager","max_tokens":4,"ignore_eos":true}
{"id":"b","prompt":"summarize the outage","max_tokens":4,"ignore_eos":true}
`))
	if err != nil {
		t.Fatal(err)
	}
	arrival, err := schedule.NewArrival(schedule.ArrivalSpec{Process: "poisson", RateRPS: 80, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	if len(only) == 0 {
		for k := range n {
			only = append(only, k)
		}
	}
	root := t.TempDir()
	startAt := time.Now().Add(3 * time.Second)
	dirs := make([]string, len(only))
	errs := make([]error, len(only))
	var wg sync.WaitGroup
	for i, k := range only {
		dirs[i] = filepath.Join(root, "shard-"+string(rune('0'+k)))
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = servebench.Run(context.Background(), servebench.RunConfig{
				Workload: w, Arrival: arrival, Count: 40, Client: clientFor(srv), OutputDir: dirs[i],
				LagTolerance: 5 * time.Second, RunID: "0193a5a0-0000-7000-8000-0000000000aa",
				Shard: &schedule.Shard{Index: k, Count: n}, StartAt: startAt,
			})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("shard %d: %v", only[i], err)
		}
	}
	return dirs
}

func TestShardedRunsMergeIntoOneRunThatRecordsEveryRequestOnce(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.05 })
	dirs := runShards(t, srv, 4, 7)
	for k, d := range dirs {
		rep, err := score.RunDir(d, score.Options{})
		if err != nil {
			t.Fatal(err)
		}
		// 40 arrivals dealt round-robin over 4 shards: 10 each.
		if rep.Offered != 10 || rep.StatusCounts[record.StatusNotSent] != 0 {
			t.Errorf("shard %d scores offered %d with %d not_sent; want its own 10 and none unsent", k, rep.Offered, rep.StatusCounts[record.StatusNotSent])
		}
	}
	out := filepath.Join(t.TempDir(), "merged")
	rep, err := servebench.MergeShards(dirs, out, score.Options{})
	if err != nil {
		t.Fatal(err)
	}
	full, _, err := schedule.Read(filepath.Join(out, record.ScheduleFile))
	if err != nil {
		t.Fatal(err)
	}
	outcomes, err := record.ReadOutcomes(filepath.Join(out, record.OutcomesFile))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Offered != 40 || len(full.Entries) != 40 || full.Shard != nil {
		t.Fatalf("merged offered %d from a schedule of %d entries (shard section %v); want 40 and no shard section", rep.Offered, len(full.Entries), full.Shard)
	}
	count := map[string]int{}
	for _, o := range outcomes {
		count[o.ID]++
	}
	for _, e := range full.Entries {
		if count[e.ID] != 1 {
			t.Errorf("%s is recorded %d times; want exactly once", e.ID, count[e.ID])
		}
	}
	if len(outcomes) != 40 {
		t.Errorf("merged outcomes.jsonl has %d records; want 40", len(outcomes))
	}
	g := rep.Generator
	if g == nil || len(g.Shards) != 4 || g.Sent != 40 || g.StartSkewMS == nil {
		t.Fatalf("merged generator %+v; want 4 shards, 40 sent and a start skew", g)
	}
	// The shards' prompt tokens sent add up to the merged records' own.
	var tokens int64
	reported := 0
	for _, o := range outcomes {
		if o.PromptTokens != nil {
			tokens += int64(*o.PromptTokens)
			reported++
		}
	}
	if p := g.PromptTokensSent; g.History != schedule.TurnHistoryEngine || p == nil || *p != (report.PromptTokensSent{Total: tokens, Reported: reported, Sent: 40}) {
		t.Errorf("merged history %q, prompt tokens sent %+v; want engine and {%d %d 40}", g.History, p, tokens, reported)
	}
	for k, st := range g.Shards {
		if st.Index != k || st.Missing || st.Scheduled != 10 || st.Sent != 10 || st.StartOffsetMS == nil || st.MaxScheduleLagMS == nil {
			t.Errorf("shard timing %d = %+v; want index %d, present, 10 scheduled and sent, offset and lag recorded", k, st, k)
		}
	}
	again, err := score.RunDir(out, score.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if again.Offered != 40 || again.ProtocolSuccesses != rep.ProtocolSuccesses {
		t.Errorf("score --run of the merged directory: offered %d, successes %d; want 40, %d", again.Offered, again.ProtocolSuccesses, rep.ProtocolSuccesses)
	}
}

func TestAMissingShardIsNotSentAndMakesTheMergedRunInvalid(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.05 })
	dirs := runShards(t, srv, 4, 7, 0, 1, 3) // shard 2 never ran
	out := filepath.Join(t.TempDir(), "merged")
	rep, err := servebench.MergeShards(dirs, out, score.Options{})
	if err != nil {
		t.Fatal(err)
	}
	shard2, _, err := schedule.Read(filepath.Join(dirs[0], record.ScheduleFile))
	if err != nil {
		t.Fatal(err)
	}
	s2, err := shard2.Full().ForShard(schedule.Shard{Index: 2, Count: 4})
	if err != nil {
		t.Fatal(err)
	}
	share := map[string]bool{}
	for _, e := range s2.OwnShare().Entries {
		share[e.ID] = true
	}
	outcomes, err := record.ReadOutcomes(filepath.Join(out, record.OutcomesFile))
	if err != nil {
		t.Fatal(err)
	}
	notSent := 0
	for _, o := range outcomes {
		if (o.Status == record.StatusNotSent) != share[o.ID] {
			t.Errorf("%s: status %s; want not_sent exactly for shard 2's share", o.ID, o.Status)
		}
		if o.Status == record.StatusNotSent {
			notSent++
		}
	}
	if rep.Offered != 40 || notSent != 10 || len(share) != 10 || rep.Valid {
		t.Errorf("offered %d, not_sent %d (share %d), valid %v; want 40, 10, 10, not valid", rep.Offered, notSent, len(share), rep.Valid)
	}
	if g := rep.Generator; g == nil || !g.Shards[2].Missing || g.Shards[1].Missing {
		t.Errorf("generator shards %+v; want shard 2 alone marked missing", rep.Generator)
	}
	// 30 of 40 scheduled requests could be sent: delivered is at most 3/4 of ideal.
	if g := rep.Generator; g.IdealRPS == nil || g.DeliveredRPS == nil || *g.DeliveredRPS > 0.75**g.IdealRPS+1e-9 {
		t.Errorf("ideal %v, delivered %v req/s; want delivered at most 3/4 of ideal", g.IdealRPS, g.DeliveredRPS)
	}
	var text strings.Builder
	if err := render.Text(&text, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Shards:", "shard 2/4:", "MISSING: its share is recorded as not_sent", "shard 1/4:", "10 of 10 sent"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text report lacks %q:\n%s", want, text.String())
		}
	}
}

func TestMergeRefusesShardsThatDoNotPartitionOneRun(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.05 })
	dirs := runShards(t, srv, 2, 7)
	other := runShards(t, srv, 2, 8) // another seed: another schedule
	for _, c := range []struct {
		name    string
		dirs    []string
		wantErr string
	}{
		{"same shard twice", []string{dirs[0], dirs[0]}, "shard 0/2 is given twice"},
		{"another run's shard", []string{dirs[0], other[1]}, "different seeds"},
	} {
		_, err := servebench.MergeShards(c.dirs, filepath.Join(t.TempDir(), "m"), score.Options{})
		if err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("%s: error %v; want one containing %q", c.name, err, c.wantErr)
		}
	}
}

func TestAStartInstantAlreadyPastIsRefusedBeforeAnythingIsSent(t *testing.T) {
	srv := simengine.StartTest(t, nil)
	dir := t.TempDir()
	_, err := servebench.Start(context.Background(), servebench.RunConfig{
		Workload: workloadOf(t, `{"id":"a","prompt":"x","max_tokens":2}`+"\n"), Arrival: constant(t, 10), Count: 2,
		Client: clientFor(srv), OutputDir: dir, StartAt: time.Now().Add(-time.Second),
	})
	if err == nil || !strings.Contains(err.Error(), "has already passed") {
		t.Fatalf("error %v; want the start instant refused as past", err)
	}
}

// A shard whose run died mid-write leaves a torn last line: the merge
// scores the lines before it, counts the torn request as unrecorded and
// says why the merged run is not valid.
func TestMergeScoresAShardWithATornLastLine(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.05 })
	dirs := runShards(t, srv, 2, 7)
	path := filepath.Join(dirs[1], record.OutcomesFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	torn := strings.Join(lines[:len(lines)-1], "") + lines[len(lines)-1][:20] // the last record cut mid-write
	if err := os.WriteFile(path, []byte(torn), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := servebench.MergeShards(dirs, filepath.Join(t.TempDir(), "m"), score.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantLine := fmt.Sprintf("%s:%d: the last line is torn", path, len(lines))
	found := false
	for _, r := range rep.InvalidReasons {
		found = found || strings.Contains(r, wantLine)
	}
	if rep.Offered != 40 || rep.StatusCounts[record.StatusNotSent] != 1 || rep.Valid || !found {
		t.Errorf("offered %d, not_sent %d, valid %v, reasons %q; want 40, the torn request unrecorded, not valid naming %q",
			rep.Offered, rep.StatusCounts[record.StatusNotSent], rep.Valid, rep.InvalidReasons, wantLine)
	}
}
