#!/usr/bin/env bash
# build-image.sh builds the servebench image: a static binary and the host's
# CA bundle on an empty base image (kube.Dockerfile), tagged ${1:-servebench:dev}.
# Push it to a registry the cluster pulls from, then render the Job with
# `servebench k8s job --image TAG ...`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tag="${1:-servebench:dev}"
ca="${SERVEBENCH_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}"
ctx="$(mktemp -d)"
trap 'rm -rf "$ctx"' EXIT
CGO_ENABLED=0 GOOS=linux go build -trimpath -o "$ctx/servebench" ./cmd/servebench
cp "$ca" "$ctx/ca-certificates.crt"
go run ./kube/cmd/dockerfile > "$ctx/Dockerfile"
docker build -t "$tag" "$ctx"
echo "$tag"
