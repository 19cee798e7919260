package servebench_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// BenchmarkShardStartSkew runs 4 shards of one run in this process against
// the simulated engine, all told to start at one instant, and reports how
// far apart their measurements started (start-skew-ms: latest minus
// earliest offset) and the latest offset from the instant
// (max-start-offset-ms). Shards in one process share a clock, so this is the
// start's own lateness; across machines each shard's clock offset adds to
// its start_offset_ms.
func BenchmarkShardStartSkew(b *testing.B) {
	cfg := simengine.DefaultConfig()
	cfg.TimeScale = 0.05
	srv, err := simengine.Start(b.Context(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	var skew, worst float64
	for b.Loop() {
		dirs := runShards(b, srv, 4, 7)
		rep, err := servebench.MergeShards(dirs, filepath.Join(b.TempDir(), "m"), score.Options{})
		if err != nil {
			b.Fatal(err)
		}
		skew = max(skew, *rep.Generator.StartSkewMS)
		for _, s := range rep.Generator.Shards {
			worst = max(worst, *s.StartOffsetMS)
		}
	}
	b.ReportMetric(skew, "start-skew-ms")
	b.ReportMetric(worst, "max-start-offset-ms")
}

// BenchmarkMergeShards merges 4 shards of 25,000 recorded 64-token
// requests each (100,000 in all) and scores the merged run.
func BenchmarkMergeShards(b *testing.B) {
	const n, perShard = 4, 25_000
	w, err := schedule.ParseWorkload("w.jsonl", []byte(`{"id":"a","prompt":"x","max_tokens":64,"ignore_eos":true}`+"\n"))
	if err != nil {
		b.Fatal(err)
	}
	arrival, err := schedule.NewArrival(schedule.ArrivalSpec{Process: "constant", RateRPS: 1000})
	if err != nil {
		b.Fatal(err)
	}
	full, err := schedule.Build(schedule.Plan{Workload: w, Arrival: arrival, Count: n * perShard, RunID: "0193a5a0-0000-7000-8000-0000000000ff"})
	if err != nil {
		b.Fatal(err)
	}
	root := b.TempDir()
	var dirs []string
	for k := range n {
		s, err := full.ForShard(schedule.Shard{Index: k, Count: n})
		if err != nil {
			b.Fatal(err)
		}
		dir := filepath.Join(root, "shard", string(rune('0'+k)))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		if _, err := schedule.Write(filepath.Join(dir, record.ScheduleFile), s); err != nil {
			b.Fatal(err)
		}
		writeSyntheticOutcomes(b, filepath.Join(dir, record.OutcomesFile), s.OwnShare())
		dirs = append(dirs, dir)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		out := filepath.Join(root, "merged", string(rune('a'+i%26)), b.Name())
		if _, err := servebench.MergeShards(dirs, out, score.Options{}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		_ = os.RemoveAll(out)
		b.StartTimer()
	}
	b.ReportMetric(float64(n*perShard), "requests/op")
}

// writeSyntheticOutcomes records every entry of s as a 64-token success.
func writeSyntheticOutcomes(b *testing.B, path string, s *schedule.Schedule) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	enc := json.NewEncoder(bw)
	src := record.TokensFromUsage
	status, tokens := 200, 64
	for _, e := range s.Entries {
		a := e.ScheduledMS
		content := make([]float64, 64)
		for i := range content {
			content[i] = a + 20 + float64(i)*8
		}
		o := record.Outcome{ID: e.ID, Attempt: 1, Status: record.StatusSuccess, ScheduledMS: a,
			SlotMS: &a, SentMS: ptrF(a + 0.2), FirstContentMS: &content[0], LastContentMS: &content[63],
			TerminalMS: content[63] + 1, ContentMS: content, OutputTokens: &tokens, TokenCountSource: &src,
			HTTPStatus: &status, FinishReason: "length"}
		if err := enc.Encode(o); err != nil {
			b.Fatal(err)
		}
	}
	if err := bw.Flush(); err != nil {
		b.Fatal(err)
	}
}

func ptrF(v float64) *float64 { return &v }
