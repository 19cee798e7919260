#!/usr/bin/env bash
# Builds Ollama's CUDA backend from the Ollama module's own sources, for the
# local GPU's compute capability only, and lays the libraries out beside an
# Ollama binary (the CPU build of .ci/build-ollama.sh), where Ollama looks
# for them:
#
#   <prefix>/bin/ollama
#   <prefix>/lib/ollama/libggml-base.so*
#   <prefix>/lib/ollama/cuda_v<major>/libggml-cuda.so
#
# Usage:
#   bash .ci/build-ollama-cuda.sh pack OUT.tar.xz   # on a machine with Go: the CMake sources, ~1 MB
#   bash .ci/build-ollama-cuda.sh build             # on the GPU host; prints the binary's path last
#   bash .ci/build-ollama-cuda.sh plan              # what build would do, without building
#
# Environment:
#   OLLAMA_VERSION        module version (default v0.17.4)
#   OLLAMA_SRC            the sources: a directory or a `pack` archive (default: the Go module cache,
#                         which needs Go and the module proxy)
#   OLLAMA_PREFIX         where bin/ollama is and lib/ollama goes (default: the CPU build's cache
#                         directory, $SERVEBENCH_CACHE_DIR/ollama-$OLLAMA_VERSION)
#   CUDA_ARCHITECTURES    e.g. 90; default: the compute capability nvidia-smi reports (one GPU model)
#   CUDA_HOME             default /usr/local/cuda; nvcc is looked for on PATH, then in $CUDA_HOME/bin
#   BUILD_JOBS            default: the number of CPUs
#
# The CMake preset is "CUDA <major>", the major version of the local nvcc;
# only the ggml-cuda target is built (about two minutes on 16 cores for one
# architecture), since the CPU binary already holds the CPU backend.
set -euo pipefail

version="${OLLAMA_VERSION:-v0.17.4}"
cache_root="${SERVEBENCH_CACHE_DIR:-$HOME/.cache/servebench}"
prefix="${OLLAMA_PREFIX:-$cache_root/ollama-$version}"
cuda_home="${CUDA_HOME:-/usr/local/cuda}"
jobs="${BUILD_JOBS:-$(nproc)}"

log() { printf 'build-ollama-cuda: %s\n' "$*" >&2; }
die() {
	log "error: $*"
	exit 1
}

# The files of the module that the CMake build reads.
source_paths=(CMakeLists.txt CMakePresets.json ml/backend/ggml/ggml)

module_dir() {
	command -v go >/dev/null 2>&1 || die "go is not on PATH: set OLLAMA_SRC to a directory or an archive made by '$0 pack'"
	local dir
	dir="$(go mod download -json "github.com/ollama/ollama@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
	[[ -n "$dir" && -f "$dir/CMakePresets.json" ]] || die "go mod download github.com/ollama/ollama@$version gave no sources"
	printf '%s\n' "$dir"
}

pack() {
	local out="$1"
	[[ -n "$out" ]] || die "usage: $0 pack OUT.tar.xz"
	local dir
	dir="$(module_dir)"
	tar -C "$dir" -cJf "$out" "${source_paths[@]}"
	log "packed ${source_paths[*]} of ollama $version into $out ($(du -h "$out" | cut -f1))"
}

# sources prints a directory holding the CMake sources.
sources() {
	local src="${OLLAMA_SRC:-}"
	if [[ -z "$src" ]]; then
		module_dir
		return
	fi
	if [[ -d "$src" ]]; then
		[[ -f "$src/CMakePresets.json" ]] || die "OLLAMA_SRC=$src has no CMakePresets.json"
		printf '%s\n' "$src"
		return
	fi
	[[ -f "$src" ]] || die "OLLAMA_SRC=$src is neither a directory nor an archive"
	local dir="$prefix/cuda-src"
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -C "$dir" -xJf "$src"
	printf '%s\n' "$dir"
}

# nvcc_path prints nvcc's path.
nvcc_path() {
	if command -v nvcc >/dev/null 2>&1; then
		command -v nvcc
	elif [[ -x "$cuda_home/bin/nvcc" ]]; then
		printf '%s\n' "$cuda_home/bin/nvcc"
	else
		die "nvcc not found on PATH or in $cuda_home/bin: install the CUDA toolkit or set CUDA_HOME"
	fi
}

# cuda_major prints the major version of nvcc ("release 13.0" -> 13).
cuda_major() {
	local release
	release="$("$1" --version | sed -n 's/.*release \([0-9][0-9]*\)\.[0-9]*.*/\1/p' | head -n 1)"
	[[ -n "$release" ]] || die "cannot read the CUDA version from '$1 --version'"
	printf '%s\n' "$release"
}

# architectures prints the CUDA architectures to build: CUDA_ARCHITECTURES,
# else the compute capability of the local GPUs ("9.0" -> 90), which must
# all be the same.
architectures() {
	if [[ -n "${CUDA_ARCHITECTURES:-}" ]]; then
		printf '%s\n' "$CUDA_ARCHITECTURES"
		return
	fi
	command -v nvidia-smi >/dev/null 2>&1 ||
		die "no NVIDIA GPU here: nvidia-smi is not on PATH (set CUDA_ARCHITECTURES, e.g. 90, to build for another machine)"
	local caps
	caps="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | tr -d ' .' | sort -u)" ||
		die "nvidia-smi --query-gpu=compute_cap failed: no usable NVIDIA GPU or driver"
	[[ -n "$caps" ]] || die "nvidia-smi reports no GPU"
	[[ "$(wc -l <<<"$caps")" -eq 1 ]] || die "GPUs of several compute capabilities ($(tr '\n' ' ' <<<"$caps")): set CUDA_ARCHITECTURES"
	printf '%s\n' "$caps"
}

build() {
	local dry="$1"
	local nvcc major arch preset src build_dir runner_dir
	nvcc="$(nvcc_path)"
	major="$(cuda_major "$nvcc")"
	preset="CUDA $major"
	arch="$(architectures)"
	if ! command -v cmake >/dev/null 2>&1; then
		[[ "$dry" == 1 ]] || die "cmake is not on PATH"
		log "warning: cmake is not on PATH; the build needs it"
	fi
	src="$(sources)"
	grep -q "\"name\": \"$preset\"" "$src/CMakePresets.json" ||
		die "ollama $version has no CMake preset \"$preset\" (nvcc $major): see $src/CMakePresets.json"
	runner_dir="cuda_v$major"
	build_dir="$prefix/cuda-build"
	local generator=()
	if command -v ninja >/dev/null 2>&1; then
		generator=(-G Ninja)
	fi
	log "ollama $version, preset \"$preset\", CUDA architectures $arch, nvcc $nvcc, $jobs jobs"
	log "sources $src, build $build_dir, libraries into $prefix/lib/ollama/$runner_dir"
	if [[ "$dry" == 1 ]]; then
		printf 'cmake -S %q -B %q --preset %q -DCMAKE_CUDA_ARCHITECTURES=%q -DCMAKE_CUDA_COMPILER=%q %s\n' \
			"$src" "$build_dir" "$preset" "$arch" "$nvcc" "${generator[*]}"
		printf 'cmake --build %q --target ggml-cuda -j %q\n' "$build_dir" "$jobs"
		return
	fi
	[[ -x "$prefix/bin/ollama" ]] || die "no Ollama binary at $prefix/bin/ollama: build it with .ci/build-ollama.sh (or copy it there)"

	local start end
	start=$(date +%s)
	(cd "$src" && cmake -S . -B "$build_dir" --preset "$preset" \
		-DCMAKE_CUDA_ARCHITECTURES="$arch" -DCMAKE_CUDA_COMPILER="$nvcc" "${generator[@]}" >&2)
	cmake --build "$build_dir" --target ggml-cuda -j "$jobs" >&2
	end=$(date +%s)

	local out="$build_dir/lib/ollama"
	ls "$out"/libggml-cuda.so >/dev/null 2>&1 || die "the build left no libggml-cuda.so in $out"
	mkdir -p "$prefix/lib/ollama/$runner_dir"
	cp -a "$out"/libggml-base.so* "$prefix/lib/ollama/"
	cp -a "$out"/libggml-cuda.so "$prefix/lib/ollama/$runner_dir/"
	log "built the CUDA backend in $((end - start)) s: $prefix/lib/ollama/$runner_dir/libggml-cuda.so"
	printf '%s\n' "$prefix/bin/ollama"
}

case "${1:-build}" in
pack) pack "${2:-}" ;;
build) build 0 ;;
plan) build 1 ;;
*) die "unknown command $1 (want pack, build or plan)" ;;
esac
