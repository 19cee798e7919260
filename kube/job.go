package kube

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"
)

// ShardIndexVar is the container environment variable the rendered pods
// read their completion index into (from the Job's completion-index
// annotation), used in the shard's output path.
const ShardIndexVar = "SERVEBENCH_SHARD_INDEX"

// completionIndexAnnotation is where an Indexed Job puts each pod's index.
const completionIndexAnnotation = "batch.kubernetes.io/job-completion-index"

// workloadMount is where each pod's init container writes the workload
// (an emptyDir), and partsMount where the workload ConfigMaps' parts are
// projected.
const (
	workloadMount = "/etc/servebench/workload"
	partsMount    = "/etc/servebench/workload-parts"
)

// MaxNameLength bounds a Job's name: the Job controller labels each pod
// with it (63 characters at most), and the merge Job adds "-merge".
const MaxNameLength = 63 - len("-merge")

// JobSpec declares a sharded run on a cluster.
type JobSpec struct {
	// Name names the Job, its ConfigMaps (Name-workload-000, ...) and its
	// pods: a DNS-1123 label of at most MaxNameLength characters.
	Name string
	// Namespace is the namespace of every object; empty means kubectl's.
	Namespace string
	// Image is a servebench image (its entrypoint is the servebench binary).
	Image string
	// Shards is N: the Job's completions and parallelism.
	Shards int
	// RunID is the run ID every shard shares.
	RunID string
	// StartAt, when set, is the common start instant of the shards'
	// measurement, fixed in the manifest.
	StartAt time.Time
	// StartDelay, when StartAt is not set, makes the start relative: the
	// shards meet at a Barrier on the results volume and start StartDelay
	// after the last of them is ready, whenever the manifest is applied.
	StartDelay time.Duration
	// RunArgs are the run flags every shard gets as they are (the arrival
	// process, rate, count, SLOs, base URL, model...), without --shard,
	// --run-id, --start-at, --workload and --output, which the Job sets.
	RunArgs []string
	// WorkloadName and Workload are the workload file's base name and its
	// exact bytes, carried gzip-compressed by the ConfigMaps (PackWorkload)
	// and checked by SHA-256 when each pod unpacks them, so every shard
	// hashes the same bytes.
	WorkloadName string
	Workload     []byte
	// VolumeClaim names the PersistentVolumeClaim mounted at Output in every
	// pod; shards write to Output/RunID/shard-K. With more than one node it
	// must allow ReadWriteMany.
	VolumeClaim string
	// Output is the mount path of the volume, e.g. /results.
	Output string
	// SecretEnv, when set, names a Secret whose keys become environment
	// variables of every pod (for --api-key-env).
	SecretEnv string
}

// ShardDir is shard k's run directory inside the volume.
func (s JobSpec) ShardDir(k string) string { return path.Join(s.Output, s.RunID, "shard-"+k) }

// BarrierDir is the start barrier's directory inside the volume, one per
// Job (its UID, which the pods read into JobUIDVar).
func (s JobSpec) BarrierDir() string {
	return path.Join(s.Output, s.RunID, "start-barrier", "$("+JobUIDVar+")")
}

// MergedDir is where the merge Job writes the merged run.
func (s JobSpec) MergedDir() string { return path.Join(s.Output, s.RunID, "merged") }

// validate checks what every rendered object needs.
func (s JobSpec) validate() error {
	if err := s.validateNames(); err != nil {
		return err
	}
	switch {
	case s.Image == "":
		return errors.New("kube: --image is required (a servebench image)")
	case s.Shards < 1:
		return fmt.Errorf("kube: --shards %d: want at least 1", s.Shards)
	case s.RunID == "":
		return errors.New("kube: a run ID is required")
	case s.VolumeClaim == "":
		return errors.New("kube: --volume-claim is required: the shards write their run directories to it")
	case !path.IsAbs(s.Output):
		return fmt.Errorf("kube: --output %q: want the volume's absolute mount path in the pod, e.g. /results", s.Output)
	}
	return nil
}

// validateNames checks the names the API server would refuse.
func (s JobSpec) validateNames() error {
	if s.Name == "" {
		return errors.New("kube: a job name is required")
	}
	if errs := validation.IsDNS1123Label(s.Name); len(errs) > 0 || len(s.Name) > MaxNameLength {
		return fmt.Errorf("kube: --name %q: want a DNS-1123 label (lower-case letters, digits and '-', starting and ending alphanumeric) of at most %d characters: %s",
			s.Name, MaxNameLength, strings.Join(errs, "; "))
	}
	for _, n := range []struct{ flag, value string }{{"namespace", s.Namespace}, {"volume-claim", s.VolumeClaim}, {"secret-env", s.SecretEnv}} {
		check := validation.IsDNS1123Subdomain
		if n.flag == "namespace" {
			check = validation.IsDNS1123Label
		}
		if n.value == "" {
			continue
		}
		if errs := check(n.value); len(errs) > 0 {
			return fmt.Errorf("kube: --%s %q: not a valid Kubernetes name: %s", n.flag, n.value, strings.Join(errs, "; "))
		}
	}
	return nil
}

// RenderJob renders the ConfigMaps carrying the workload (PackWorkload) and
// the Indexed Job running the shards, as one YAML stream. Each shard's pod
// first joins and checks the parts in an init container (`servebench k8s
// unpack-workload`), then runs its shard.
func RenderJob(s JobSpec) ([]byte, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	switch {
	case s.StartAt.IsZero() == (s.StartDelay <= 0):
		return nil, errors.New("kube: give either a start instant or a start delay")
	case s.WorkloadName == "" || len(s.Workload) == 0:
		return nil, errors.New("kube: a workload is required")
	}
	parts, err := PackWorkload(s.WorkloadName, s.Workload)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(s.Workload)
	digest := hex.EncodeToString(sum[:])
	objects := make([]any, 0, len(parts)+1)
	sources := make([]corev1.VolumeProjection, 0, len(parts))
	for i, part := range parts {
		cm := &corev1.ConfigMap{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: s.meta(fmt.Sprintf("%s-workload-%03d", s.Name, i)),
			BinaryData: map[string][]byte{workloadPartKey(i): part},
		}
		cm.Annotations = map[string]string{
			"servebench.io/workload": s.WorkloadName, "servebench.io/workload-sha256": digest,
			"servebench.io/part": fmt.Sprintf("%d of %d", i+1, len(parts)),
		}
		objects = append(objects, cm)
		sources = append(sources, corev1.VolumeProjection{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: cm.Name}}})
	}
	args := s.shardArgs()
	pod := s.podSpec(args,
		corev1.Volume{Name: "workload-parts", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: sources}}},
		corev1.Volume{Name: "workload", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
	)
	pod.InitContainers = []corev1.Container{{
		Name: "unpack-workload", Image: s.Image,
		Args: []string{"k8s", "unpack-workload", "--parts", partsMount, "--sha256", digest, "--output", path.Join(workloadMount, s.WorkloadName)},
		VolumeMounts: []corev1.VolumeMount{
			{Name: "workload-parts", MountPath: partsMount, ReadOnly: true},
			{Name: "workload", MountPath: workloadMount},
		},
	}}
	c := &pod.Containers[0]
	c.Env = append(c.Env, corev1.EnvVar{Name: ShardIndexVar, ValueFrom: &corev1.EnvVarSource{
		FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.annotations['" + completionIndexAnnotation + "']"},
	}})
	if s.StartAt.IsZero() {
		c.Env = append(c.Env, corev1.EnvVar{Name: JobUIDVar, ValueFrom: &corev1.EnvVarSource{
			FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.labels['" + jobUIDLabel + "']"},
		}})
	}
	c.VolumeMounts = append(c.VolumeMounts, corev1.VolumeMount{Name: "workload", MountPath: workloadMount, ReadOnly: true})
	indexed := batchv1.IndexedCompletion
	job := s.job(s.Name, pod)
	job.Spec.CompletionMode = &indexed
	job.Spec.Completions = ptr(int32(s.Shards))
	job.Spec.Parallelism = ptr(int32(s.Shards))
	return yamlStream(append(objects, job)...)
}

// shardArgs is each shard's command line: its run, started at StartAt, or
// behind `servebench k8s start`, which waits at the barrier and then runs
// it with the instant it found.
func (s JobSpec) shardArgs() []string {
	n := strconv.Itoa(s.Shards)
	run := append([]string{"run"}, s.RunArgs...)
	run = append(run,
		"--shard", "env/"+n,
		"--run-id", s.RunID,
	)
	if !s.StartAt.IsZero() {
		run = append(run, "--start-at", s.StartAt.UTC().Format(time.RFC3339Nano))
	}
	run = append(run,
		"--workload", path.Join(workloadMount, s.WorkloadName),
		"--output", s.ShardDir("$("+ShardIndexVar+")"),
		"--no-progress",
	)
	if !s.StartAt.IsZero() {
		return run
	}
	return append([]string{"k8s", "start", "--barrier", s.BarrierDir(), "--shards", n, "--index", "$(" + ShardIndexVar + ")",
		"--start-delay", s.StartDelay.String(), "--"}, run...)
}

// RenderMergeJob renders the Job that merges the shards' run directories
// into Output/RunID/merged. Apply it once the sharded Job has completed
// (`kubectl wait --for=condition=complete job/NAME`).
func RenderMergeJob(s JobSpec) ([]byte, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	args := []string{"merge", "--output", s.MergedDir()}
	for k := range s.Shards {
		args = append(args, s.ShardDir(strconv.Itoa(k)))
	}
	job := s.job(s.Name+"-merge", s.podSpec(args))
	job.Spec.Completions, job.Spec.Parallelism = ptr(int32(1)), ptr(int32(1))
	return yamlStream(job)
}

// meta names an object and labels it with the run.
func (s JobSpec) meta(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name: name, Namespace: s.Namespace,
		Labels: map[string]string{"app.kubernetes.io/name": "servebench", "servebench.io/run-id": s.RunID},
	}
}

// job wraps a pod spec in a Job that never retries a shard: a retried
// shard would send its share twice.
func (s JobSpec) job(name string, pod corev1.PodSpec) *batchv1.Job {
	m := s.meta(name)
	return &batchv1.Job{
		TypeMeta:   metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: m,
		Spec: batchv1.JobSpec{
			BackoffLimit: ptr(int32(0)),
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: m.Labels},
				Spec:       pod,
			},
		},
	}
}

// podSpec is one servebench container with the results volume mounted.
func (s JobSpec) podSpec(args []string, extra ...corev1.Volume) corev1.PodSpec {
	c := corev1.Container{
		Name: "servebench", Image: s.Image, Args: args,
		VolumeMounts: []corev1.VolumeMount{{Name: "results", MountPath: s.Output}},
	}
	if s.SecretEnv != "" {
		c.EnvFrom = []corev1.EnvFromSource{{SecretRef: &corev1.SecretEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: s.SecretEnv}}}}
	}
	vols := append([]corev1.Volume{{
		Name:         "results",
		VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: s.VolumeClaim}},
	}}, extra...)
	return corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{c}, Volumes: vols}
}

// yamlStream writes objects as one YAML stream, documents split by "---",
// without the empty status and resources the API types always marshal.
func yamlStream(objects ...any) ([]byte, error) {
	var b strings.Builder
	for i, o := range objects {
		data, err := json.Marshal(o)
		if err != nil {
			return nil, fmt.Errorf("kube: %w", err)
		}
		var tree map[string]any
		if err := json.Unmarshal(data, &tree); err != nil {
			return nil, fmt.Errorf("kube: %w", err)
		}
		pruneEmpty(tree)
		if data, err = yaml.Marshal(tree); err != nil {
			return nil, fmt.Errorf("kube: %w", err)
		}
		if i > 0 {
			b.WriteString("---\n")
		}
		b.Write(data)
	}
	return []byte(b.String()), nil
}

// emptyNoise are the fields dropped when they hold an empty object: an
// object's status (the API server's to write) and a container's resources
// (none requested). Other empty objects mean something (emptyDir: {}).
var emptyNoise = map[string]bool{"status": true, "resources": true}

// pruneEmpty drops the emptyNoise fields holding {} anywhere in v.
func pruneEmpty(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if m, ok := x.(map[string]any); ok && len(m) == 0 && emptyNoise[k] {
				delete(v, k)
				continue
			}
			pruneEmpty(x)
		}
	case []any:
		for _, x := range v {
			pruneEmpty(x)
		}
	}
}

func ptr[T any](v T) *T { return &v }
