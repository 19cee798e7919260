package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/fixtures/simengine"
)

// The simulated engine holds 2048 KV tokens (128 blocks of 16) and keeps
// that many in its prefix cache. Prefixes of 256 tokens (16 blocks each,
// the 8 question tokens after them never filling a block), interleaved
// group by group: at 0.5 × the capacity the 4 groups' 64 blocks stay
// cached after their first round, so the later 28 of 32 requests hit (at
// 1 × the 8 groups' 128 blocks just fit, and 24 of 32 hit); at
// 2 × and 4 × the 16 and 32 groups need 256 and 512 blocks, each group is
// evicted before it comes back (least recently used), and nothing hits.
// The capacity comes from the engine's vllm:cache_config_info; every
// point starts from a reset cache.
func TestWorkingSetSweepHitRateFallsPastTheCapacity(t *testing.T) {
	url := startSim(t, func(c *simengine.Config) { c.PrefixCaching, c.KVCacheTokens = true, 2048 })
	out := filepath.Join(t.TempDir(), "ws")
	code, stdout, stderr := runCLI("sweep", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "completions",
		"--working-set", "0.5,1,2,4", "--rate", "40", "--arrival", "constant", "--count", "32", "--prefix-tokens", "256",
		"--prompt-tokens", "264", "--max-tokens", "2", "--metrics-url", url+"/metrics", "--reset-prefix-cache",
		"--schedule-lag-tolerance", "2s", "--output", out, "--no-progress")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "working_set.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res workingSetResult
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if res.KVCapacityTokens != 2048 || res.CapacitySource != "vllm:cache_config_info" || res.CacheState != "reset" || len(res.Points) != 4 {
		t.Fatalf("result %+v", res)
	}
	for i, want := range []int{4, 8, 16, 32} {
		p := res.Points[i]
		if p.Groups != want || p.WorkingSetTokens != want*256 || p.Offered != 32 || p.HitRate == nil || p.TTFTP99MS == nil {
			t.Fatalf("point %g: %+v, want %d groups of 256 tokens and 32 requests with a hit rate and a TTFT", p.Multiple, p, want)
		}
	}
	// 28 of 32 requests find their 256-token prefix cached, of 264
	// prompt tokens each; at 1 × the 8 groups' 128 blocks fill the cache
	// exactly and 24 of 32 do.
	for i, want := range []float64{28 * 256.0 / (32 * 264), 24 * 256.0 / (32 * 264)} {
		if p := res.Points[i]; math.Abs(*p.HitRate-want) > 1e-9 || math.Abs(*p.EngineHitRate-want) > 1e-9 {
			t.Errorf("%g × capacity: hit rate %v (engine %v), want %v", p.Multiple, *p.HitRate, *p.EngineHitRate, want)
		}
	}
	for _, p := range res.Points[2:] {
		if *p.HitRate != 0 {
			t.Errorf("%g × capacity: hit rate %v, want 0", p.Multiple, *p.HitRate)
		}
	}
	if !strings.Contains(stdout, "KV capacity 2048 tokens (from vllm:cache_config_info), cache reset") {
		t.Errorf("stdout:\n%s", stdout)
	}
}

// Without a known KV capacity the sweep exits 1 before any load; --rate
// without --working-set and --working-set with --rates are refused.
func TestWorkingSetSweepRefusals(t *testing.T) {
	srv := simengine.StartTest(t, nil)
	base := []string{"sweep", "--base-url", srv.BaseURL(), "--model", "simengine-tiny", "--count", "4", "--prefix-tokens", "16",
		"--prompt-tokens", "24", "--max-tokens", "2", "--no-progress"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--working-set", "1,2", "--rate", "5", "--output", filepath.Join(t.TempDir(), "o")}, "--working-set: the engine's KV capacity is unknown: give --kv-capacity-tokens N"},
		{[]string{"--rate", "5", "--rates", "1,2", "--output", filepath.Join(t.TempDir(), "o")}, "--rate is refused: a sweep takes its rates from --rates"},
		{[]string{"--working-set", "1", "--rates", "1,2", "--output", filepath.Join(t.TempDir(), "o")}, "--working-set and --rates"},
		{[]string{"--working-set", "0,1", "--rate", "5", "--output", filepath.Join(t.TempDir(), "o")}, `--working-set: "0" is not a positive multiple`},
	} {
		code, _, stderr := runCLI(append(append([]string(nil), base...), c.args...)...)
		if code != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, want 1 with %q\n%s", c.args, code, c.want, stderr)
		}
	}
	if n := srv.Stats().Submitted; n != 0 {
		t.Fatalf("the engine saw %d requests, want none", n)
	}
}
