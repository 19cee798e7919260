package kube_test

import (
	"fmt"
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
