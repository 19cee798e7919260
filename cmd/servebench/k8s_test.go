package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/report"
	batchv1 "k8s.io/api/batch/v1"
	"sigs.k8s.io/yaml"
)

// The pods' command line is a sharded run that the run command's own flag
// set accepts, carrying every run flag the user gave.
func TestK8sJobPodsRunTheShardedRunCommand(t *testing.T) {
	workload := writeWorkload(t, twoRows)
	code, stdout, stderr := runCLI("k8s", "job", "--base-url", "http://vllm.bench.svc:8000", "--model", "m",
		"--workload", workload, "--arrival", "poisson", "--rate", "300", "--count", "9000", "--ttft-slo", "500ms",
		"--shards", "3", "--image", "servebench:test", "--volume-claim", "results", "--output", "/results",
		"--run-id", "0193a5a0-0000-7000-8000-0000000000ee", "--start-at", "2031-01-01T00:00:00Z")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	docs := strings.Split(stdout, "\n---\n")
	var job batchv1.Job
	if err := yaml.UnmarshalStrict([]byte(docs[len(docs)-1]), &job); err != nil {
		t.Fatal(err)
	}
	args := job.Spec.Template.Spec.Containers[0].Args
	if len(args) == 0 || args[0] != "run" {
		t.Fatalf("pod args %q; want a run", args)
	}
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f runFlags
	f.register(fs)
	if err := fs.Parse(args[1:]); err != nil {
		t.Fatalf("the run command refuses the pod's args %q: %v", args, err)
	}
	if f.sharding.shard != "env/3" || f.sharding.runID != "0193a5a0-0000-7000-8000-0000000000ee" || f.sharding.startAt != "2031-01-01T00:00:00Z" ||
		f.baseURL != "http://vllm.bench.svc:8000" || f.rate != 300 || f.count != 9000 || f.ttftSLO.String() != "500ms" ||
		f.workload != "/etc/servebench/workload/w.jsonl" || f.output != "/results/0193a5a0-0000-7000-8000-0000000000ee/shard-$(SERVEBENCH_SHARD_INDEX)" {
		t.Errorf("pod run flags %+v from %q", f, args)
	}
	if !strings.Contains(stdout, "servebench k8s merge-job --name servebench-0193a5a0 --run-id 0193a5a0-0000-7000-8000-0000000000ee --shards 3") {
		t.Errorf("the output does not say how to merge:\n%s", stdout)
	}
}

func TestK8sJobRefusesAShardFlag(t *testing.T) {
	code, _, stderr := runCLI("k8s", "job", "--base-url", "http://e:8000", "--model", "m", "--workload", writeWorkload(t, twoRows),
		"--rate", "1", "--count", "2", "--shards", "2", "--image", "i", "--volume-claim", "c", "--output", "/r", "--shard", "0/2")
	if code != 1 || !strings.Contains(stderr, "use --shards N") {
		t.Errorf("exit %d, stderr %q; want 1 refusing --shard", code, stderr)
	}
}

// A --header value is never written into a manifest, and the run flags are
// range-checked as a run checks them.
func TestK8sJobRefusesHeadersAndBadNumbers(t *testing.T) {
	workload := writeWorkload(t, twoRows)
	base := []string{"k8s", "job", "--base-url", "http://vllm.bench.svc:8000", "--model", "m", "--workload", workload,
		"--rate", "300", "--count", "9000", "--shards", "3", "--image", "servebench:test", "--volume-claim", "results", "--output", "/results"}
	code, stdout, stderr := runCLI(append(base, "--header", "X-Gateway-Key=gw-SECRET")...)
	if code != 1 || !strings.Contains(stderr, "--header: its value would be written into the manifest") || strings.Contains(stdout+stderr, "gw-SECRET") {
		t.Errorf("--header: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, _, stderr = runCLI(append(base, "--require-attainment", "NaN")...)
	if code != 1 || !strings.Contains(stderr, "--require-attainment: want a fraction in [0, 1], got NaN") {
		t.Errorf("--require-attainment NaN: exit %d, stderr %q", code, stderr)
	}
}

// Without --start-at the manifest fixes no instant: each pod runs
// `servebench k8s start`, which waits --start-delay (30s by default) after
// the last shard is ready, then the shard's run; the header says so. The
// YAML has no empty status or resources.
func TestK8sJobStartsRelativeToTheLastReadyShard(t *testing.T) {
	workload := writeWorkload(t, twoRows)
	base := []string{"k8s", "job", "--base-url", "http://vllm.bench.svc:8000", "--model", "m", "--workload", workload,
		"--rate", "300", "--count", "9000", "--shards", "3", "--image", "servebench:test", "--volume-claim", "results",
		"--output", "/results", "--run-id", "0193a5a0-0000-7000-8000-0000000000ee"}
	for _, tc := range []struct {
		extra []string
		delay string
	}{{nil, "30s"}, {[]string{"--start-delay", "2m"}, "2m0s"}} {
		code, stdout, stderr := runCLI(append(base, tc.extra...)...)
		if code != 0 || stderr != "" {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		header := "# servebench run 0193a5a0-0000-7000-8000-0000000000ee: 3 shards start their measurement " + tc.delay +
			" after the last of them is ready (they meet at /results/0193a5a0-0000-7000-8000-0000000000ee/start-barrier/$(SERVEBENCH_JOB_UID) on the volume).\n"
		if !strings.HasPrefix(stdout, header) {
			t.Errorf("header:\n%s", stdout[:strings.Index(stdout, "\n")+1])
		}
		for _, noise := range []string{"status: {}", "resources: {}", "--start-at"} {
			if strings.Contains(stdout, noise) {
				t.Errorf("the manifest has %q", noise)
			}
		}
		docs := strings.Split(stdout, "\n---\n")
		var job batchv1.Job
		if err := yaml.UnmarshalStrict([]byte(docs[len(docs)-1]), &job); err != nil {
			t.Fatal(err)
		}
		args := job.Spec.Template.Spec.Containers[0].Args
		want := []string{"k8s", "start", "--barrier", "/results/0193a5a0-0000-7000-8000-0000000000ee/start-barrier/$(SERVEBENCH_JOB_UID)",
			"--shards", "3", "--index", "$(SERVEBENCH_SHARD_INDEX)", "--start-delay", tc.delay, "--", "run"}
		if len(args) < len(want) || !slices.Equal(args[:len(want)], want) {
			t.Errorf("pod args %q; want them to begin %q", args, want)
		}
	}
	code, _, stderr := runCLI(append(base, "--start-delay", "0s")...)
	if code != 1 || stderr != "servebench k8s job: --start-delay: want a positive duration, got 0s\n" {
		t.Errorf("--start-delay 0s: exit %d, stderr %q", code, stderr)
	}
}

// --start-in is accepted for one more release with a warning, and keeps
// its meaning: the start is fixed at rendering plus its value.
func TestK8sJobStartInIsDeprecated(t *testing.T) {
	workload := writeWorkload(t, twoRows)
	before := time.Now()
	code, stdout, stderr := runCLI("k8s", "job", "--base-url", "http://vllm.bench.svc:8000", "--model", "m", "--workload", workload,
		"--rate", "300", "--count", "9000", "--shards", "3", "--image", "servebench:test", "--volume-claim", "results",
		"--output", "/results", "--start-in", "10m")
	const warning = "servebench k8s job: --start-in is deprecated and goes in the next release: without --start-at the shards now start --start-delay after the last one is ready, whenever the manifest is applied; --start-in still fixes the start at rendering plus its value\n"
	if code != 0 || stderr != warning {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	docs := strings.Split(stdout, "\n---\n")
	var job batchv1.Job
	if err := yaml.UnmarshalStrict([]byte(docs[len(docs)-1]), &job); err != nil {
		t.Fatal(err)
	}
	args := job.Spec.Template.Spec.Containers[0].Args
	i := slices.Index(args, "--start-at")
	if args[0] != "run" || i < 0 {
		t.Fatalf("pod args %q", args)
	}
	at, err := time.Parse(time.RFC3339Nano, args[i+1])
	if err != nil || at.Before(before.Add(10*time.Minute)) || at.After(time.Now().Add(10*time.Minute)) {
		t.Errorf("start %v (%v), want rendering + 10m", at, err)
	}
}

// merge-job accepted --start-in beside the other k8s flags and ignored it:
// it is still accepted for one release, with a warning, and the manifest
// is the one without it.
func TestK8sMergeJobStartInIsDeprecated(t *testing.T) {
	base := []string{"k8s", "merge-job", "--run-id", "0193a5a0-0000-7000-8000-0000000000ee", "--shards", "3",
		"--image", "servebench:test", "--volume-claim", "results", "--output", "/results"}
	code, plain, stderr := runCLI(base...)
	if code != 0 || stderr != "" {
		t.Fatalf("without --start-in: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := runCLI(append(base, "--start-in", "10m")...)
	const warning = "servebench k8s merge-job: --start-in is deprecated and goes in the next release; it never changed the merge Job\n"
	if code != 0 || stderr != warning || stdout != plain {
		t.Fatalf("with --start-in: exit %d, stderr %q, manifest changed: %v", code, stderr, stdout != plain)
	}
}

// In the pod, `k8s start` waits at the barrier and runs the shard with
// the instant it found: here one shard, against the simulated engine,
// starts its measurement 1s after it arrived.
func TestK8sStartRunsTheShardAtTheBarriersInstant(t *testing.T) {
	url := startSim(t, nil)
	barrier, out := filepath.Join(t.TempDir(), "barrier"), t.TempDir()
	code, _, stderr := runCLI("k8s", "start", "--barrier", barrier, "--shards", "1", "--index", "0", "--start-delay", "1s", "--",
		"run", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat", "--workload", writeWorkload(t, twoRows),
		"--rate", "20", "--count", "2", "--shard", "0/1", "--run-id", "0193a5a0-0000-7000-8000-0000000000ef", "--output", out, "--no-progress",
		"--schedule-lag-tolerance", lagRoom)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(barrier, "shard-0"))
	if err != nil {
		t.Fatal(err)
	}
	arrived, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	start := arrived.Add(time.Second).UTC().Format(time.RFC3339Nano)
	if !strings.Contains(stderr, "servebench k8s start: all 1 shards ready; shard 0 starts its measurement at "+start+"\n") {
		t.Errorf("stderr:\n%s", stderr)
	}
	rep, err := report.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if g := rep.Generator; g == nil || g.Shard == nil || g.Shard.StartAt != start {
		t.Errorf("generator %+v, want the shard's start %s", g, start)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"k8s", "start", "--shards", "1", "--index", "0", "--", "run"}, "servebench k8s start: give --barrier DIR --shards N --index K, then -- run [run flags]\n"},
		{[]string{"k8s", "start", "--barrier", barrier, "--shards", "1", "--index", "0", "--", "sweep"}, "servebench k8s start: give --barrier DIR --shards N --index K, then -- run [run flags]\n"},
	} {
		if code, _, stderr := runCLI(tc.args...); code != 1 || stderr != tc.want {
			t.Errorf("%q: exit %d, stderr %q", tc.args, code, stderr)
		}
	}
}
