package kube_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/servebench/servebench/kube"
)

// RenderJob writes the workload's ConfigMap and the Indexed Job; each pod
// runs one shard of the same run.
func ExampleRenderJob() {
	manifest, err := kube.RenderJob(kube.JobSpec{
		Name: "bench", Image: "registry.example/servebench:v1", Shards: 4,
		RunID: "0193a5a0-0000-7000-8000-000000000001", StartAt: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC),
		RunArgs:      []string{"--base-url=http://vllm.serving.svc:8000", "--model=m", "--rate=400", "--count=40000"},
		WorkloadName: "w.jsonl", Workload: []byte(`{"id":"a","prompt":"x","max_tokens":4}` + "\n"),
		VolumeClaim: "results", Output: "/results",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range strings.Split(string(manifest), "\n") {
		if strings.Contains(line, "completionMode") || strings.Contains(line, "parallelism") || strings.Contains(line, "shard-") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	// Output:
	// completionMode: Indexed
	// parallelism: 4
	// - /results/0193a5a0-0000-7000-8000-000000000001/shard-$(SERVEBENCH_SHARD_INDEX)
}

// PackWorkload cuts a compressed workload into the parts the ConfigMaps
// carry; UnpackWorkload, in each pod, joins them and checks the hash.
func ExampleUnpackWorkload() {
	workload := []byte(`{"id":"a","prompt":"x","max_tokens":4}` + "\n")
	parts, err := kube.PackWorkload("w.jsonl", workload)
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, _ := os.MkdirTemp("", "parts-")
	defer func() { _ = os.RemoveAll(dir) }()
	for i, p := range parts {
		_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("part-%03d", i)), p, 0o644)
	}
	out := filepath.Join(dir, "w.jsonl")
	err = kube.UnpackWorkload(dir, "547386bcd2346140e72c6b4cc474c43001aade491a5acfd2acf924daeebf09c8", out)
	got, _ := os.ReadFile(out)
	fmt.Println(len(parts), err, string(got) == string(workload))
	// Output: 1 <nil> true
}
