package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/google/uuid"
	"github.com/servebench/servebench/kube"
)

func init() {
	register("k8s", "render Kubernetes manifests of a sharded run: k8s job | k8s merge-job (k8s unpack-workload and k8s start run in the pods)", runK8s)
}

// k8sFlags are the flags that place a sharded run on a cluster.
type k8sFlags struct {
	name, namespace, image, volumeClaim, secretEnv string
	shards                                         int
	startDelay, startIn                            time.Duration
}

func (f *k8sFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.name, "name", "", "name of the Job and its objects (default servebench-<first 8 characters of the run ID>)")
	fs.StringVar(&f.namespace, "namespace", "", "namespace of every object (default: kubectl's)")
	fs.StringVar(&f.image, "image", "", "servebench image whose entrypoint is the servebench binary (required)")
	fs.StringVar(&f.volumeClaim, "volume-claim", "", "PersistentVolumeClaim mounted at --output in every pod (required; ReadWriteMany across nodes)")
	fs.StringVar(&f.secretEnv, "secret-env", "", "Secret whose keys become the pods' environment (e.g. the variable --api-key-env names)")
	fs.IntVar(&f.shards, "shards", 0, "number of shards: the Job's completions and parallelism (required)")
}

// registerStart adds the flags of k8s job that place the start.
func (f *k8sFlags) registerStart(fs *flag.FlagSet) {
	fs.DurationVar(&f.startDelay, "start-delay", kube.DefaultStartDelay, "without --start-at: start the measurement this long after the last shard's pod is ready (it must cover preflight and warmup)")
	fs.DurationVar(&f.startIn, "start-in", 0, "deprecated, use --start-delay: start the measurement this long after rendering")
}

// k8sOnly are the flags of k8s job that are not run flags, and owned are
// the run flags the Job sets itself for every shard.
var (
	k8sOnly = map[string]bool{"name": true, "namespace": true, "image": true, "volume-claim": true, "secret-env": true, "shards": true, "start-delay": true, "start-in": true}
	owned   = map[string]bool{"shard": true, "run-id": true, "start-at": true, "workload": true, "output": true, "no-progress": true}
)

// runK8s is the k8s command: it writes manifests on stdout for kubectl.
func runK8s(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || (args[0] != "job" && args[0] != "merge-job" && args[0] != "unpack-workload" && args[0] != "start") {
		fmt.Fprintln(stderr, "usage: servebench k8s job [run flags] --shards N --image IMAGE --volume-claim PVC --output /results")
		fmt.Fprintln(stderr, "       servebench k8s merge-job --run-id ID --shards N --image IMAGE --volume-claim PVC --output /results")
		fmt.Fprintln(stderr, "       servebench k8s unpack-workload --parts DIR --sha256 HEX --output FILE   (the pods' init container)")
		fmt.Fprintln(stderr, "       servebench k8s start --barrier DIR --shards N --index K --start-delay D -- run [run flags]   (each shard's pod)")
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			return 0
		}
		return 1
	}
	switch args[0] {
	case "merge-job":
		return runK8sMergeJob(args[1:], stdout, stderr)
	case "unpack-workload":
		return runK8sUnpackWorkload(args[1:], stderr)
	case "start":
		return runK8sStart(args[1:], stdout, stderr)
	}
	return runK8sJob(args[1:], stdout, stderr)
}

// runK8sJob renders the workload ConfigMap and the sharded Indexed Job.
func runK8sJob(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("servebench k8s job", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var run runFlags
	var k k8sFlags
	run.registerWithout(fs, k8sJobRefusedFlags)
	k.register(fs)
	k.registerStart(fs)
	if err := parseFlags(fs, args, k8sJobRefusedFlags...); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 1
	}
	if setFlags(fs)["start-in"] {
		fmt.Fprintln(stderr, "servebench k8s job: --start-in is deprecated and goes in the next release: without --start-at the shards now start --start-delay after the last one is ready, whenever the manifest is applied; --start-in still fixes the start at rendering plus its value")
	}
	spec, err := k8sJobSpec(fs, &run, &k)
	if err != nil {
		fmt.Fprintf(stderr, "servebench k8s job: %v\n", err)
		return 1
	}
	out, err := kube.RenderJob(spec)
	if err != nil {
		fmt.Fprintf(stderr, "servebench k8s job: %v\n", err)
		return 1
	}
	if spec.StartAt.IsZero() {
		fmt.Fprintf(stdout, "# servebench run %s: %d shards start their measurement %v after the last of them is ready (they meet at %s on the volume).\n",
			spec.RunID, spec.Shards, spec.StartDelay, spec.BarrierDir())
	} else {
		fmt.Fprintf(stdout, "# servebench run %s: %d shards start their measurement at %s.\n", spec.RunID, spec.Shards, spec.StartAt.UTC().Format(time.RFC3339))
	}
	fmt.Fprintf(stdout, "# Apply with kubectl apply --server-side -f (or kubectl create -f): the workload's ConfigMaps are too large for the annotation client-side apply adds.\n")
	fmt.Fprintf(stdout, "# Once job/%s completes, merge the shards with:\n", spec.Name)
	fmt.Fprintf(stdout, "#   servebench k8s merge-job --name %s --run-id %s --shards %d --image %s --volume-claim %s --output %s | kubectl apply -f -\n",
		spec.Name, spec.RunID, spec.Shards, spec.Image, spec.VolumeClaim, spec.Output)
	_, _ = stdout.Write(out)
	return 0
}

// k8sJobSpec checks the run flags as a run would and builds the Job's spec.
func k8sJobSpec(fs *flag.FlagSet, run *runFlags, k *k8sFlags) (kube.JobSpec, error) {
	if fs.NArg() > 0 {
		return kube.JobSpec{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if run.sharding.shard != "" {
		return kube.JobSpec{}, errors.New("--shard: the Job gives every pod its shard; use --shards N")
	}
	if len(run.headers.header) > 0 || run.headers.err != nil {
		return kube.JobSpec{}, errors.New("--header: its value would be written into the manifest; give the pods the header another way (a gateway's own configuration)")
	}
	if run.adapters.load != "" && k.shards > 1 {
		return kube.JobSpec{}, errors.New("--load-adapters: each of the Job's pods would load the adapters into the one engine, which refuses a second load; load them before the Job, or give --shards 1")
	}
	run.given = setFlags(fs)
	// The API key lives in the pods' environment, not here.
	apiKeyEnv := run.apiKeyEnv
	run.apiKeyEnv = ""
	if run.images.sizes != "" {
		return kube.JobSpec{}, errors.New("--images: k8s job does not generate images; give a workload whose rows carry them")
	}
	if run.synthetic.given() {
		return kube.JobSpec{}, fmt.Errorf("--%s: k8s job ships a workload file to its pods; write the rows with servebench workload generate fixed --output w.jsonl (the same flags) and give --workload w.jsonl", run.synthetic.firstGiven())
	}
	if _, err := run.config(io.Discard); err != nil {
		return kube.JobSpec{}, err
	}
	run.apiKeyEnv = apiKeyEnv
	workload, err := os.ReadFile(run.workload)
	if err != nil {
		return kube.JobSpec{}, err
	}
	spec := kube.JobSpec{
		Name: k.name, Namespace: k.namespace, Image: k.image, Shards: k.shards, RunID: run.sharding.runID,
		WorkloadName: filepath.Base(run.workload), Workload: workload,
		VolumeClaim: k.volumeClaim, Output: run.output, SecretEnv: k.secretEnv,
		StartDelay: k.startDelay,
	}
	if run.given["start-in"] {
		spec.StartAt, spec.StartDelay = time.Now().Add(k.startIn), 0
	}
	if spec.RunID == "" {
		id, err := uuid.NewV7()
		if err != nil {
			return spec, err
		}
		spec.RunID = id.String()
	}
	if spec.Name == "" {
		spec.Name = "servebench-" + spec.RunID[:8]
	}
	if run.sharding.startAt != "" {
		if spec.StartAt, err = time.Parse(time.RFC3339Nano, run.sharding.startAt); err != nil {
			return spec, fmt.Errorf("--start-at: want an RFC 3339 instant, got %q", run.sharding.startAt)
		}
		spec.StartDelay = 0
	}
	if spec.StartAt.IsZero() && spec.StartDelay <= 0 {
		return spec, fmt.Errorf("--start-delay: want a positive duration, got %v", spec.StartDelay)
	}
	fs.Visit(func(f *flag.Flag) {
		if !k8sOnly[f.Name] && !owned[f.Name] {
			spec.RunArgs = append(spec.RunArgs, "--"+f.Name+"="+f.Value.String())
		}
	})
	return spec, nil
}

// runK8sMergeJob renders the Job that merges a sharded run's directories.
func runK8sMergeJob(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("servebench k8s merge-job", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var k k8sFlags
	k.register(fs)
	runID := fs.String("run-id", "", "the sharded run's ID (required)")
	output := fs.String("output", "", "the volume's mount path the shards wrote to (required)")
	// merge-job took --start-in with the other k8s flags, and ignored it.
	fs.Duration("start-in", 0, "deprecated and ignored: the merge starts when it is applied")
	if err := parseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 1
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "servebench k8s merge-job: unexpected argument %q\n", fs.Arg(0))
		return 1
	}
	if setFlags(fs)["start-in"] {
		fmt.Fprintln(stderr, "servebench k8s merge-job: --start-in is deprecated and goes in the next release; it never changed the merge Job")
	}
	name := k.name
	if name == "" && len(*runID) >= 8 {
		name = "servebench-" + (*runID)[:8]
	}
	out, err := kube.RenderMergeJob(kube.JobSpec{
		Name: name, Namespace: k.namespace, Image: k.image, Shards: k.shards, RunID: *runID,
		VolumeClaim: k.volumeClaim, Output: *output,
	})
	if err != nil {
		fmt.Fprintf(stderr, "servebench k8s merge-job: %v\n", err)
		return 1
	}
	_, _ = stdout.Write(out)
	return 0
}

// runK8sUnpackWorkload joins, checks and writes the workload in a shard's
// pod (the init container RenderJob adds).
func runK8sUnpackWorkload(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("servebench k8s unpack-workload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	parts := fs.String("parts", "", "directory holding the workload's parts (part-000, ...) (required)")
	sum := fs.String("sha256", "", "SHA-256 (hex) the joined workload must hash to (required)")
	output := fs.String("output", "", "file to write the workload to (required)")
	if code, done := parseCommandLine(fs, args, stderr); done {
		return code
	}
	if *parts == "" || *sum == "" || *output == "" {
		fmt.Fprintln(stderr, "servebench k8s unpack-workload: --parts, --sha256 and --output are required")
		return 1
	}
	if err := kube.UnpackWorkload(*parts, *sum, *output); err != nil {
		fmt.Fprintf(stderr, "servebench k8s unpack-workload: %v\n", err)
		return 1
	}
	return 0
}

// runK8sStart is each shard's command in a Job without --start-at: it
// waits at the start barrier on the results volume, then runs the shard
// (the run command after "--") with --start-at set to the instant every
// shard found.
func runK8sStart(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("servebench k8s start", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var b kube.Barrier
	fs.StringVar(&b.Dir, "barrier", "", "directory on the shared volume where the shards meet (required)")
	fs.IntVar(&b.Shards, "shards", 0, "number of shards (required)")
	fs.IntVar(&b.Index, "index", -1, "this shard's index, 0 to shards-1 (required)")
	fs.DurationVar(&b.Delay, "start-delay", kube.DefaultStartDelay, "time from the last shard's arrival to the start")
	fs.DurationVar(&b.Timeout, "timeout", kube.DefaultBarrierTimeout, "how long to wait for the other shards")
	if err := parseFlags(fs, args); err != nil {
		return parseFailureCode(err)
	}
	run := fs.Args()
	if b.Dir == "" || len(run) == 0 || run[0] != "run" {
		fmt.Fprintln(stderr, "servebench k8s start: give --barrier DIR --shards N --index K, then -- run [run flags]")
		return 1
	}
	at, err := b.Wait(context.Background())
	if err != nil {
		fmt.Fprintf(stderr, "servebench k8s start: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "servebench k8s start: all %d shards ready; shard %d starts its measurement at %s\n", b.Shards, b.Index, at.UTC().Format(time.RFC3339Nano))
	return dispatch(append(run, "--start-at", at.UTC().Format(time.RFC3339Nano)), stdout, stderr)
}
