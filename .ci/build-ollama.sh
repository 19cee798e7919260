#!/usr/bin/env bash
# Builds a CPU-only Ollama binary from the Go module proxy into a cache
# directory, and does nothing when that binary is already there.
#
#   bash .ci/build-ollama.sh            # prints the binary's path on the last line
#
# Environment:
#   OLLAMA_VERSION        module version to build (default v0.17.4)
#   SERVEBENCH_CACHE_DIR  cache root (default $HOME/.cache/servebench)
#
# The binary lands in $SERVEBENCH_CACHE_DIR/ollama-$OLLAMA_VERSION/bin/ollama.
# For a GPU host, .ci/build-ollama-cuda.sh adds the CUDA backend beside it.
#
# Why the extra steps: Go module zips drop every vendor/ directory, so three
# C/C++ header libraries bundled with Ollama's llama.cpp are missing from the
# module. nlohmann/json and stb_image come from Debian packages; miniaudio has
# no package and only the multimodal audio helper uses it, so a stand-in header
# (.ci/ollama-stub/miniaudio/miniaudio.h) that makes audio decoding fail is put
# on the include path. The first build takes several minutes on two cores; a
# rebuild with warm Go caches takes seconds, as long as the cgo flags (and so
# the stand-in header's path) stay the same, which is why the header is copied
# to a fixed place inside the cache directory.
set -euo pipefail

version="${OLLAMA_VERSION:-v0.17.4}"
cache_root="${SERVEBENCH_CACHE_DIR:-$HOME/.cache/servebench}"
prefix="$cache_root/ollama-$version"
binary="$prefix/bin/ollama"
script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
stub_source="$script_dir/ollama-stub/miniaudio/miniaudio.h"

log() { printf 'build-ollama: %s\n' "$*" >&2; }

if [[ -x "$binary" ]]; then
	log "cached: $binary"
	printf '%s\n' "$binary"
	exit 0
fi

mkdir -p "$prefix"
# One build at a time per cache directory; a second caller waits, then finds
# the binary.
exec 9>"$prefix/.build.lock"
if command -v flock >/dev/null 2>&1; then
	flock 9
fi
if [[ -x "$binary" ]]; then
	log "cached: $binary"
	printf '%s\n' "$binary"
	exit 0
fi

command -v go >/dev/null 2>&1 || { log "go is not on PATH"; exit 1; }

# Header libraries from Debian packages.
missing=()
[[ -f /usr/include/nlohmann/json.hpp && -f /usr/include/nlohmann/json_fwd.hpp ]] || missing+=(nlohmann-json3-dev)
[[ -f /usr/include/stb/stb_image.h ]] || missing+=(libstb-dev)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
if ((${#missing[@]} > 0)); then
	log "installing ${missing[*]}"
	sudo_cmd=()
	if [[ $(id -u) -ne 0 ]]; then
		sudo_cmd=(sudo)
	fi
	"${sudo_cmd[@]}" apt-get update
	"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

# The stand-in miniaudio header, at a fixed path so the cgo flags (part of
# the Go build cache key) do not depend on where the repository is checked out.
include_dir="$prefix/include"
mkdir -p "$include_dir/miniaudio"
cp "$stub_source" "$include_dir/miniaudio/miniaudio.h"

staging="$prefix/staging"
rm -rf "$staging"
mkdir -p "$staging"

log "building github.com/ollama/ollama@$version (several minutes on a cold cache)"
start=$(date +%s)
CGO_ENABLED=1 \
	CGO_CPPFLAGS="-I$include_dir" \
	GOBIN="$staging" \
	go install -ldflags "-X github.com/ollama/ollama/version.Version=${version#v}" \
	"github.com/ollama/ollama@$version"
end=$(date +%s)

mkdir -p "$prefix/bin"
mv "$staging/ollama" "$binary"
rmdir "$staging"
log "built $binary in $((end - start)) s"
"$binary" --version >&2 || true
printf '%s\n' "$binary"
