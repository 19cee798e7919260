package kube_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/kube"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metavalidation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"
)

// maxObjectBytes is etcd's default request limit (1.5 MiB), which bounds
// any object the API server stores.
const maxObjectBytes = 3 << 19

// checkAPILimits decodes every document of a rendered stream and checks it
// against the API's own validation of names, labels and annotations, and
// against the size limits: a ConfigMap's data at most 1 MiB, any object at
// most 1.5 MiB, container, volume and environment names as the pod
// validation wants them.
func checkAPILimits(t *testing.T, stream []byte) {
	t.Helper()
	for i, doc := range strings.Split(string(stream), "\n---\n") {
		var head metav1.TypeMeta
		if err := yaml.Unmarshal([]byte(doc), &head); err != nil {
			t.Fatalf("document %d: %v", i, err)
		}
		asJSON, err := yaml.YAMLToJSON([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if len(asJSON) > maxObjectBytes {
			t.Errorf("document %d (%s) is %d bytes as JSON; the API server stores at most %d", i, head.Kind, len(asJSON), maxObjectBytes)
		}
		switch head.Kind {
		case "ConfigMap":
			var cm corev1.ConfigMap
			if err := yaml.UnmarshalStrict([]byte(doc), &cm); err != nil {
				t.Fatal(err)
			}
			checkMeta(t, &cm.ObjectMeta, apivalidation.NameIsDNSSubdomain)
			size := 0
			for k, v := range cm.BinaryData {
				size += len(v)
				checkAll(t, "configmap key", k, validation.IsConfigMapKey)
			}
			for k, v := range cm.Data {
				size += len(v)
				checkAll(t, "configmap key", k, validation.IsConfigMapKey)
			}
			if size > kube.MaxConfigMapBytes {
				t.Errorf("ConfigMap %s holds %d bytes; the API server refuses more than %d", cm.Name, size, kube.MaxConfigMapBytes)
			}
		case "Job":
			var job batchv1.Job
			if err := yaml.UnmarshalStrict([]byte(doc), &job); err != nil {
				t.Fatal(err)
			}
			// The Job controller puts the name in a label of every pod.
			checkMeta(t, &job.ObjectMeta, apivalidation.NameIsDNSLabel)
			checkAll(t, "job-name label", job.Name, validation.IsValidLabelValue)
			if errs := metavalidation.ValidateLabels(job.Spec.Template.Labels, field.NewPath("template")); len(errs) > 0 {
				t.Errorf("pod template labels: %v", errs)
			}
			checkPod(t, job.Spec.Template.Spec)
		default:
			t.Errorf("document %d: unexpected kind %q", i, head.Kind)
		}
	}
}

func checkMeta(t *testing.T, m *metav1.ObjectMeta, name apivalidation.ValidateNameFunc) {
	t.Helper()
	// Both kinds are namespaced; an empty namespace is kubectl's to fill.
	if errs := apivalidation.ValidateObjectMeta(m, m.Namespace != "", name, field.NewPath("metadata")); len(errs) > 0 {
		t.Errorf("%s: %v", m.Name, errs.ToAggregate())
	}
}

func checkPod(t *testing.T, pod corev1.PodSpec) {
	t.Helper()
	for _, c := range append(pod.InitContainers, pod.Containers...) {
		checkAll(t, "container name", c.Name, validation.IsDNS1123Label)
		for _, e := range c.Env {
			checkAll(t, "env name", e.Name, validation.IsEnvVarName)
		}
	}
	for _, v := range pod.Volumes {
		checkAll(t, "volume name", v.Name, validation.IsDNS1123Label)
		if v.Projected != nil {
			for _, src := range v.Projected.Sources {
				checkAll(t, "projected ConfigMap", src.ConfigMap.Name, validation.IsDNS1123Subdomain)
			}
		}
	}
}

func checkAll(t *testing.T, what, v string, check func(string) []string) {
	t.Helper()
	if errs := check(v); len(errs) > 0 {
		t.Errorf("%s %q: %v", what, v, errs)
	}
}

// incompressible is n bytes of JSONL whose prompts are random base64, so
// that gzip saves only about a quarter.
func incompressible(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	var b bytes.Buffer
	raw := make([]byte, 3000)
	for i := 0; b.Len() < n; i++ {
		for j := range raw {
			raw[j] = byte(r.Uint32())
		}
		fmt.Fprintf(&b, `{"id":"r%d","prompt":"%s","max_tokens":4}`+"\n", i, base64.StdEncoding.EncodeToString(raw))
	}
	return b.Bytes()
}

// A 4 MiB workload (about 3 MiB compressed) travels in four ConfigMaps of
// at most 768 KiB, every object within the API's limits, and the parts,
// written out as the projected volume would, unpack to the exact bytes.
func TestALargeWorkloadIsSplitAcrossConfigMapsTheAPIAccepts(t *testing.T) {
	s := spec()
	s.Workload = incompressible(4 << 20)
	data, err := kube.RenderJob(s)
	if err != nil {
		t.Fatal(err)
	}
	checkAPILimits(t, data)
	docs := strings.Split(string(data), "\n---\n")
	parts, err := kube.PackWorkload(s.WorkloadName, s.Workload)
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) < 4 || len(docs) != len(parts)+1 {
		t.Fatalf("%d parts in %d documents; want 4 or more parts, one ConfigMap each, and the Job", len(parts), len(docs))
	}
	dir := t.TempDir()
	for i := range parts {
		var cm corev1.ConfigMap
		if err := yaml.UnmarshalStrict([]byte(docs[i]), &cm); err != nil {
			t.Fatal(err)
		}
		key := fmt.Sprintf("part-%03d", i)
		if cm.Name != fmt.Sprintf("sb-run-workload-%03d", i) || len(cm.BinaryData[key]) > kube.WorkloadPartBytes {
			t.Fatalf("document %d: %s with %d bytes under %s", i, cm.Name, len(cm.BinaryData[key]), key)
		}
		if err := os.WriteFile(filepath.Join(dir, key), cm.BinaryData[key], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var job batchv1.Job
	if err := yaml.UnmarshalStrict([]byte(docs[len(docs)-1]), &job); err != nil {
		t.Fatal(err)
	}
	sum := job.Spec.Template.Spec.InitContainers[0].Args[5]
	out := filepath.Join(t.TempDir(), "w.jsonl")
	if err := kube.UnpackWorkload(dir, sum, out); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(out); !bytes.Equal(got, s.Workload) {
		t.Fatal("the unpacked workload differs from the rendered one")
	}
	// A missing part, or a part from another render, is refused.
	if err := os.Remove(filepath.Join(dir, "part-001")); err != nil {
		t.Fatal(err)
	}
	if err := kube.UnpackWorkload(dir, sum, out); err == nil || !strings.Contains(err.Error(), "part part-001 is missing") {
		t.Fatalf("missing part: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "part-001"), parts[2], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := kube.UnpackWorkload(dir, sum, out); err == nil {
		t.Fatal("a shuffled part unpacked")
	}
}

func TestAWorkloadNoConfigMapsCanCarryIsRefused(t *testing.T) {
	s := spec()
	s.Workload = incompressible(33 << 20) // about 25 MiB compressed
	_, err := kube.RenderJob(s)
	if err == nil || !strings.Contains(err.Error(), "a Job carries at most 32 ConfigMaps of 768.0 KiB, 24.0 MiB compressed") ||
		!strings.Contains(err.Error(), "build the workload into the servebench image") || !strings.Contains(err.Error(), "workload chat.jsonl is 33.0 MiB") {
		t.Fatalf("error %v", err)
	}
}

func TestRenderJobRefusesNamesTheAPIRefuses(t *testing.T) {
	for _, c := range []struct {
		edit func(*kube.JobSpec)
		want string
	}{
		{func(s *kube.JobSpec) { s.Name = "Bench_Run" }, `--name "Bench_Run": want a DNS-1123 label`},
		{func(s *kube.JobSpec) { s.Name = strings.Repeat("a", kube.MaxNameLength+1) }, "of at most 57 characters"},
		{func(s *kube.JobSpec) { s.Namespace = "bench.prod" }, `--namespace "bench.prod": not a valid Kubernetes name`},
		{func(s *kube.JobSpec) { s.VolumeClaim = "Results" }, `--volume-claim "Results": not a valid Kubernetes name`},
		{func(s *kube.JobSpec) { s.SecretEnv = "key/x" }, `--secret-env "key/x": not a valid Kubernetes name`},
	} {
		s := spec()
		c.edit(&s)
		if _, err := kube.RenderJob(s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v; want %q", err, c.want)
		}
		if _, err := kube.RenderMergeJob(s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("merge job: error %v; want %q", err, c.want)
		}
	}
	// The longest accepted name renders objects the API accepts.
	s := spec()
	s.Name = strings.Repeat("a", kube.MaxNameLength)
	for _, render := range []func(kube.JobSpec) ([]byte, error){kube.RenderJob, kube.RenderMergeJob} {
		data, err := render(s)
		if err != nil {
			t.Fatal(err)
		}
		checkAPILimits(t, data)
	}
}
