package main

import (
	"flag"
	"io"
	"strings"
	"testing"

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
