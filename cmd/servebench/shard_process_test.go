package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// cliProcessEnv makes the test binary run as the servebench command, so a
// test can start real servebench processes without building one.
const cliProcessEnv = "SERVEBENCH_TEST_RUN_AS_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(cliProcessEnv) == "1" {
		os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// startCLI starts a servebench process with args.
func startCLI(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), cliProcessEnv+"=1")
	return cmd
}

// Four shard processes of one run, started together, merge into a run
// that records every scheduled request exactly once; leaving one shard out
// records exactly its share as not_sent and exits 2.
func TestFourShardProcessesMergeIntoOneRun(t *testing.T) {
	url := startSim(t, nil)
	workload := writeWorkload(t, twoRows)
	root := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	startAt := time.Now().Add(4 * time.Second).UTC().Format(time.RFC3339Nano)
	const runID = "0193a5a0-0000-7000-8000-0000000000bb"
	var dirs []string
	var procs []*exec.Cmd
	for k := range 4 {
		dir := filepath.Join(root, fmt.Sprintf("shard-%d", k))
		dirs = append(dirs, dir)
		cmd := startCLI(ctx, "run", "--base-url", url, "--model", "simengine-tiny", "--workload", workload,
			"--arrival", "poisson", "--rate", "60", "--count", "36", "--seed", "3", "--schedule-lag-tolerance", "5s",
			"--shard", "env/4", "--run-id", runID, "--start-at", startAt, "--output", dir, "--no-progress", "--format", "json")
		cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d", schedule.ShardIndexEnv, k))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs = append(procs, cmd)
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("shard %d stderr:\n%s", k, stderr.String())
			}
		})
	}
	for k, p := range procs {
		if err := p.Wait(); err != nil {
			t.Fatalf("shard %d: %v", k, err)
		}
	}

	out := filepath.Join(root, "merged")
	code, stdout, stderr := runCLI("merge", "--output", out, "--format", "json", dirs[3], dirs[1], dirs[0], dirs[2])
	if code != 0 {
		t.Fatalf("merge exit %d; stderr:\n%s", code, stderr)
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	sched, _, err := schedule.Read(filepath.Join(out, record.ScheduleFile))
	if err != nil {
		t.Fatal(err)
	}
	outcomes, err := record.ReadOutcomes(filepath.Join(out, record.OutcomesFile))
	if err != nil {
		t.Fatal(err)
	}
	recorded := map[string]int{}
	for _, o := range outcomes {
		recorded[o.ID]++
	}
	if rep.Offered != 36 || len(sched.Entries) != 36 || len(outcomes) != 36 {
		t.Fatalf("offered %d, scheduled %d, records %d; want 36 each", rep.Offered, len(sched.Entries), len(outcomes))
	}
	for _, e := range sched.Entries {
		if recorded[e.ID] != 1 {
			t.Errorf("%s recorded %d times; want once", e.ID, recorded[e.ID])
		}
	}
	if rep.Generator == nil || len(rep.Generator.Shards) != 4 || rep.Generator.StartSkewMS == nil {
		t.Errorf("generator %+v; want 4 shard timings and a start skew", rep.Generator)
	}

	partial := filepath.Join(root, "partial")
	code, stdout, stderr = runCLI("merge", "--output", partial, "--format", "json", dirs[0], dirs[1], dirs[3])
	if code != 2 {
		t.Fatalf("merge without shard 2: exit %d, want 2; stderr:\n%s", code, stderr)
	}
	rep = report.Report{}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	// 36 arrivals of single-turn rows dealt over 4 shards: shard 2 has 9.
	if rep.Offered != 36 || rep.StatusCounts[record.StatusNotSent] != 9 {
		t.Errorf("offered %d, not_sent %d; want 36 and shard 2's 9", rep.Offered, rep.StatusCounts[record.StatusNotSent])
	}

	if code, _, stderr := runCLI("merge", "--output", filepath.Join(root, "bad"), dirs[0], dirs[0]); code != 1 || !strings.Contains(stderr, "given twice") {
		t.Errorf("merging one shard twice: exit %d, stderr %q; want 1 naming the duplicate", code, stderr)
	}
}

func TestASweepRefusesShardFlags(t *testing.T) {
	code, _, stderr := runCLI("sweep", "--rates", "1,2", "--base-url", "http://127.0.0.1:1", "--model", "m", "--workload", writeWorkload(t, twoRows),
		"--count", "2", "--output", filepath.Join(t.TempDir(), "s"), "--no-progress", "--start-at", time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
	if code != 1 || !strings.Contains(stderr, "shard each rate's run instead") {
		t.Errorf("exit %d, stderr %q; want 1 refusing a sharded sweep", code, stderr)
	}
}

func TestShardFlagsAreCheckedBeforeAnythingIsSent(t *testing.T) {
	workload := writeWorkload(t, twoRows)
	base := []string{"run", "--base-url", "http://127.0.0.1:1", "--model", "m", "--workload", workload, "--rate", "1", "--count", "2", "--output", filepath.Join(t.TempDir(), "r"), "--no-progress"}
	future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	for _, c := range []struct {
		args    []string
		wantErr string
	}{
		{[]string{"--shard", "1/2", "--start-at", future}, "give --run-id too"},
		{[]string{"--shard", "1/2", "--run-id", "0193a5a0-0000-7000-8000-0000000000cc"}, "give --start-at too"},
		{[]string{"--shard", "2/2", "--run-id", "0193a5a0-0000-7000-8000-0000000000cc", "--start-at", future}, "index must be in [0, 2)"},
		{[]string{"--run-id", "not-a-uuid"}, "--run-id: want a UUID"},
		{[]string{"--start-at", "tomorrow"}, "--start-at: want an RFC 3339 instant"},
		{[]string{"--start-at", "2020-01-01T00:00:00Z"}, "has already passed"},
		{[]string{"--arrival", "closed", "--users", "2", "--shard", "0/2", "--run-id", "0193a5a0-0000-7000-8000-0000000000cc", "--start-at", future}, "cannot be sharded"},
	} {
		code, _, stderr := runCLI(append(base, c.args...)...)
		if code != 1 || !strings.Contains(stderr, c.wantErr) {
			t.Errorf("%v: exit %d, stderr %q; want 1 with %q", c.args, code, stderr, c.wantErr)
		}
	}
}
