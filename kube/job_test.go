package kube_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/kube"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// workloadSHA256 is the SHA-256 of spec()'s workload line, computed with
// sha256sum.
const workloadSHA256 = "547386bcd2346140e72c6b4cc474c43001aade491a5acfd2acf924daeebf09c8"

func spec() kube.JobSpec {
	return kube.JobSpec{
		Name: "sb-run", Namespace: "bench", Image: "registry.example/servebench:v1", Shards: 4,
		RunID: "0193a5a0-0000-7000-8000-0000000000dd", StartAt: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC),
		RunArgs:      []string{"--base-url=http://vllm.bench.svc:8000", "--model=m", "--rate=400", "--count=20000"},
		WorkloadName: "chat.jsonl", Workload: []byte(`{"id":"a","prompt":"x","max_tokens":4}` + "\n"),
		VolumeClaim: "results", Output: "/results", SecretEnv: "engine-key",
	}
}

// documents splits a YAML stream and decodes each document strictly: an
// unknown or misspelt field is an error, as the API server would see it.
func documents(t *testing.T, data []byte, into ...any) {
	t.Helper()
	docs := strings.Split(string(data), "\n---\n")
	if len(docs) != len(into) {
		t.Fatalf("%d documents; want %d:\n%s", len(docs), len(into), data)
	}
	for i, d := range docs {
		if err := yaml.UnmarshalStrict([]byte(d), into[i]); err != nil {
			t.Fatalf("document %d does not decode strictly: %v\n%s", i, err, d)
		}
	}
}

func TestRenderJobIsAnIndexedJobOfShardedRuns(t *testing.T) {
	s := spec()
	data, err := kube.RenderJob(s)
	if err != nil {
		t.Fatal(err)
	}
	var cm corev1.ConfigMap
	var job batchv1.Job
	documents(t, data, &cm, &job)
	checkAPILimits(t, data)
	if cm.Kind != "ConfigMap" || cm.Name != "sb-run-workload-000" || cm.Namespace != "bench" || len(cm.BinaryData["part-000"]) == 0 ||
		cm.Annotations["servebench.io/workload-sha256"] != workloadSHA256 {
		t.Errorf("configmap %s/%s %s holds %v; want bench/sb-run-workload-000 with part-000 of the compressed workload", cm.Namespace, cm.Name, cm.Kind, cm.BinaryData)
	}
	js := job.Spec
	if job.Kind != "Job" || job.APIVersion != "batch/v1" || js.CompletionMode == nil || *js.CompletionMode != batchv1.IndexedCompletion ||
		*js.Completions != 4 || *js.Parallelism != 4 || *js.BackoffLimit != 0 {
		t.Fatalf("job %s %s spec %+v; want an Indexed Job of 4 completions, parallelism 4, no retries", job.APIVersion, job.Kind, js)
	}
	pod := js.Template.Spec
	if pod.RestartPolicy != corev1.RestartPolicyNever || len(pod.Containers) != 1 {
		t.Fatalf("pod spec %+v; want one container that is never restarted", pod)
	}
	c := pod.Containers[0]
	want := []string{"run", "--base-url=http://vllm.bench.svc:8000", "--model=m", "--rate=400", "--count=20000",
		"--shard", "env/4", "--run-id", s.RunID, "--start-at", "2026-12-01T10:00:00Z",
		"--workload", "/etc/servebench/workload/chat.jsonl",
		"--output", "/results/" + s.RunID + "/shard-$(SERVEBENCH_SHARD_INDEX)", "--no-progress"}
	if c.Image != s.Image || !slices.Equal(c.Args, want) {
		t.Errorf("container %s args\n%q\nwant %s args\n%q", c.Image, c.Args, s.Image, want)
	}
	if len(c.Env) != 1 || c.Env[0].Name != kube.ShardIndexVar || c.Env[0].ValueFrom.FieldRef.FieldPath != "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
		t.Errorf("env %+v; want %s from the completion-index annotation", c.Env, kube.ShardIndexVar)
	}
	if len(c.EnvFrom) != 1 || c.EnvFrom[0].SecretRef.Name != "engine-key" {
		t.Errorf("envFrom %+v; want the engine-key Secret", c.EnvFrom)
	}
	mounts := map[string]string{}
	for _, m := range c.VolumeMounts {
		mounts[m.Name] = m.MountPath
	}
	vols := map[string]corev1.Volume{}
	for _, v := range pod.Volumes {
		vols[v.Name] = v
	}
	if mounts["results"] != "/results" || mounts["workload"] != "/etc/servebench/workload" ||
		vols["results"].PersistentVolumeClaim.ClaimName != "results" || vols["workload"].EmptyDir == nil ||
		len(vols["workload-parts"].Projected.Sources) != 1 || vols["workload-parts"].Projected.Sources[0].ConfigMap.Name != "sb-run-workload-000" {
		t.Errorf("mounts %v, volumes %+v; want the results claim at /results, the workload's emptyDir and its parts projected", mounts, pod.Volumes)
	}
	// The init container joins the parts into the emptyDir the shard reads.
	if len(pod.InitContainers) != 1 {
		t.Fatalf("init containers %+v", pod.InitContainers)
	}
	ic := pod.InitContainers[0]
	wantInit := []string{"k8s", "unpack-workload", "--parts", "/etc/servebench/workload-parts", "--sha256", workloadSHA256,
		"--output", "/etc/servebench/workload/chat.jsonl"}
	if ic.Image != s.Image || !slices.Equal(ic.Args, wantInit) {
		t.Errorf("init container %s %q; want %s %q", ic.Image, ic.Args, s.Image, wantInit)
	}
}

func TestRenderMergeJobMergesEveryShardDirectory(t *testing.T) {
	s := spec()
	data, err := kube.RenderMergeJob(s)
	if err != nil {
		t.Fatal(err)
	}
	var job batchv1.Job
	documents(t, data, &job)
	root := "/results/" + s.RunID
	want := []string{"merge", "--output", root + "/merged", root + "/shard-0", root + "/shard-1", root + "/shard-2", root + "/shard-3"}
	if job.Name != "sb-run-merge" || job.Spec.CompletionMode != nil || !slices.Equal(job.Spec.Template.Spec.Containers[0].Args, want) {
		t.Errorf("merge job %s (mode %v) args %q; want sb-run-merge, non-indexed, %q", job.Name, job.Spec.CompletionMode, job.Spec.Template.Spec.Containers[0].Args, want)
	}
}

func TestRenderJobRefusesAnIncompleteSpec(t *testing.T) {
	for _, c := range []struct {
		name    string
		edit    func(*kube.JobSpec)
		wantErr string
	}{
		{"no image", func(s *kube.JobSpec) { s.Image = "" }, "--image is required"},
		{"no shards", func(s *kube.JobSpec) { s.Shards = 0 }, "want at least 1"},
		{"no claim", func(s *kube.JobSpec) { s.VolumeClaim = "" }, "--volume-claim is required"},
		{"relative output", func(s *kube.JobSpec) { s.Output = "results" }, "absolute mount path"},
		{"no workload", func(s *kube.JobSpec) { s.Workload = nil }, "a workload is required"},
		{"no start", func(s *kube.JobSpec) { s.StartAt = time.Time{} }, "kube: give either a start instant or a start delay"},
		{"two starts", func(s *kube.JobSpec) { s.StartDelay = time.Minute }, "kube: give either a start instant or a start delay"},
	} {
		s := spec()
		c.edit(&s)
		if _, err := kube.RenderJob(s); err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("%s: error %v; want %q", c.name, err, c.wantErr)
		}
	}
}

// Without a start instant each shard's pod runs `servebench k8s start`,
// which waits at the barrier under the Job's UID on the results volume and
// then runs the shard; the pod reads the Job's UID from its controller's
// label. The manifest holds no instant at all.
func TestRenderJobWithAStartDelayWaitsAtTheBarrier(t *testing.T) {
	s := spec()
	s.StartAt, s.StartDelay = time.Time{}, 45*time.Second
	data, err := kube.RenderJob(s)
	if err != nil {
		t.Fatal(err)
	}
	var cm corev1.ConfigMap
	var job batchv1.Job
	documents(t, data, &cm, &job)
	c := job.Spec.Template.Spec.Containers[0]
	want := []string{"k8s", "start", "--barrier", "/results/" + s.RunID + "/start-barrier/$(SERVEBENCH_JOB_UID)",
		"--shards", "4", "--index", "$(SERVEBENCH_SHARD_INDEX)", "--start-delay", "45s", "--",
		"run", "--base-url=http://vllm.bench.svc:8000", "--model=m", "--rate=400", "--count=20000",
		"--shard", "env/4", "--run-id", s.RunID,
		"--workload", "/etc/servebench/workload/chat.jsonl",
		"--output", "/results/" + s.RunID + "/shard-$(SERVEBENCH_SHARD_INDEX)", "--no-progress"}
	if !slices.Equal(c.Args, want) {
		t.Errorf("args\n%q\nwant\n%q", c.Args, want)
	}
	if len(c.Env) != 2 || c.Env[1].Name != kube.JobUIDVar || c.Env[1].ValueFrom.FieldRef.FieldPath != "metadata.labels['batch.kubernetes.io/controller-uid']" {
		t.Errorf("env %+v; want %s from the controller-uid label", c.Env, kube.JobUIDVar)
	}
	if strings.Contains(string(data), "start-at") {
		t.Errorf("the manifest fixes a start instant:\n%s", data)
	}
}

// The rendered YAML holds no empty status or resources, and keeps the
// empty objects that mean something (the workload's emptyDir).
func TestRenderedYAMLHasNoEmptyStatusOrResources(t *testing.T) {
	job, err := kube.RenderJob(spec())
	if err != nil {
		t.Fatal(err)
	}
	merge, err := kube.RenderMergeJob(spec())
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"job": job, "merge-job": merge} {
		for _, noise := range []string{"status:", "resources:"} {
			if strings.Contains(string(data), noise) {
				t.Errorf("%s has %q:\n%s", name, noise, data)
			}
		}
	}
	if !strings.Contains(string(job), "\n      - emptyDir: {}\n        name: workload\n") {
		t.Errorf("the workload's emptyDir is gone:\n%s", job)
	}
}
