package kube

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// ShardIndexVar is the container environment variable the rendered pods
// read their completion index into (from the Job's completion-index
// annotation), used in the shard's output path.
const ShardIndexVar = "SERVEBENCH_SHARD_INDEX"

// completionIndexAnnotation is where an Indexed Job puts each pod's index.
const completionIndexAnnotation = "batch.kubernetes.io/job-completion-index"

// workloadMount is where the workload ConfigMap is mounted in each pod.
const workloadMount = "/etc/servebench/workload"

// JobSpec declares a sharded run on a cluster.
type JobSpec struct {
	// Name names the Job, its ConfigMap (Name-workload) and its pods.
	Name string
	// Namespace is the namespace of every object; empty means kubectl's.
	Namespace string
	// Image is a servebench image (its entrypoint is the servebench binary).
	Image string
	// Shards is N: the Job's completions and parallelism.
	Shards int
	// RunID is the run ID every shard shares.
	RunID string
	// StartAt is the common start instant of the shards' measurement.
	StartAt time.Time
	// RunArgs are the run flags every shard gets as they are (the arrival
	// process, rate, count, SLOs, base URL, model...), without --shard,
	// --run-id, --start-at, --workload and --output, which the Job sets.
	RunArgs []string
	// WorkloadName and Workload are the workload file's base name and its
	// exact bytes, carried by the ConfigMap so every shard hashes the same.
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

// MergedDir is where the merge Job writes the merged run.
func (s JobSpec) MergedDir() string { return path.Join(s.Output, s.RunID, "merged") }

// validate checks what every rendered object needs.
func (s JobSpec) validate() error {
	switch {
	case s.Name == "":
		return errors.New("kube: a job name is required")
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

// RenderJob renders the ConfigMap holding the workload and the Indexed Job
// running the shards, as one YAML stream.
func RenderJob(s JobSpec) ([]byte, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	switch {
	case s.StartAt.IsZero():
		return nil, errors.New("kube: a start instant is required")
	case s.WorkloadName == "" || len(s.Workload) == 0:
		return nil, errors.New("kube: a workload is required")
	}
	cm := &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: s.meta(s.Name + "-workload"),
		Data:       map[string]string{s.WorkloadName: string(s.Workload)},
	}
	n := strconv.Itoa(s.Shards)
	args := append([]string{"run"}, s.RunArgs...)
	args = append(args,
		"--shard", "env/"+n,
		"--run-id", s.RunID,
		"--start-at", s.StartAt.UTC().Format(time.RFC3339Nano),
		"--workload", path.Join(workloadMount, s.WorkloadName),
		"--output", s.ShardDir("$("+ShardIndexVar+")"),
		"--no-progress",
	)
	pod := s.podSpec(args, corev1.Volume{
		Name:         "workload",
		VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: cm.Name}}},
	})
	c := &pod.Containers[0]
	c.Env = append(c.Env, corev1.EnvVar{Name: ShardIndexVar, ValueFrom: &corev1.EnvVarSource{
		FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.annotations['" + completionIndexAnnotation + "']"},
	}})
	c.VolumeMounts = append(c.VolumeMounts, corev1.VolumeMount{Name: "workload", MountPath: workloadMount, ReadOnly: true})
	indexed := batchv1.IndexedCompletion
	job := s.job(s.Name, pod)
	job.Spec.CompletionMode = &indexed
	job.Spec.Completions = ptr(int32(s.Shards))
	job.Spec.Parallelism = ptr(int32(s.Shards))
	return yamlStream(cm, job)
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

// yamlStream writes objects as one YAML stream, documents split by "---".
func yamlStream(objects ...any) ([]byte, error) {
	var b strings.Builder
	for i, o := range objects {
		data, err := yaml.Marshal(o)
		if err != nil {
			return nil, fmt.Errorf("kube: %w", err)
		}
		if i > 0 {
			b.WriteString("---\n")
		}
		b.Write(data)
	}
	return []byte(b.String()), nil
}

func ptr[T any](v T) *T { return &v }
