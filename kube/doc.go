// Package kube renders the Kubernetes manifests of a sharded servebench
// run: an Indexed Job whose pods each run one shard of the same schedule
// (`servebench run --shard env/N`, every pod starting its measurement at one
// instant), a ConfigMap carrying the frozen workload, and a second Job that
// merges the shards' run directories once the first has completed. The
// instant is either fixed in the manifest (JobSpec.StartAt) or found in the
// pods (JobSpec.StartDelay): each shard meets the others at a Barrier on
// the results volume and they start StartDelay after the last arrival.
//
// The manifests are built from the official k8s.io/api types and written as
// YAML, so what is rendered is what the API server decodes. Nothing here
// talks to a cluster: apply the output with kubectl.
package kube
