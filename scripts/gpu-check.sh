#!/usr/bin/env bash
# GPU qualification: Ollama with its CUDA backend, built from the Ollama
# module's own sources, measured with the servebench CLI (GPU telemetry on)
# and with the GPU example contracts' Ginkgo suite.
#
# A GPU host may have neither Go nor network, so the work is split:
#
#   scripts/gpu-check.sh prepare BUNDLE     # here, with Go: build everything the GPU host needs
#   scripts/gpu-check.sh run BUNDLE [OUT]   # on the GPU host: CUDA build, model, CLI runs, suite, reports
#   scripts/gpu-check.sh run --dry-run BUNDLE [OUT]
#                                           # anywhere: every step up to the CUDA build, then stop
#
# The bundle (copy it to the GPU host, e.g. tar -cJf bundle.tar.xz BUNDLE):
#   bin/servebench, bin/tinygguf     static Go binaries
#   bin/gpu-contracts.test           the compiled suite of examples/gpu (go test -c)
#   suite/contracts/                 the GPU example contracts
#   ollama/bin/ollama                the CPU build of .ci/build-ollama.sh
#   ollama-cuda-src.tar.xz           the CMake sources of the Ollama module (.ci/build-ollama-cuda.sh pack)
#   build-ollama-cuda.sh             the CUDA build
#   workload.jsonl                   512-token prompts, 128 output tokens
#
# Environment (prepare): OLLAMA_BIN, an Ollama binary to put in the bundle
# instead of running .ci/build-ollama.sh. (run): GPU_SAMPLE_INTERVAL
# (default 250ms), DCGM_URL (a DCGM exporter's /metrics, optional), RATES
# (default 4,8,12,16,24), WINDOW (default 15s), CUDA_HOME.
#
# Without an NVIDIA GPU, run fails before the CUDA build and says why.
set -euo pipefail

log() { printf 'gpu-check: %s\n' "$*" >&2; }
die() {
	log "error: $*"
	exit 1
}
stage() {
	local name="$1"
	shift
	local t0=$SECONDS
	log "== $name"
	"$@"
	log "== $name: $((SECONDS - t0)) s"
}

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# The model of ../shared notes: an F32 llama of about 416 M parameters.
model_flags=(-blocks 8 -embedding 2048 -heads 16 -ff 5632 -eos never)

# workload writes n rows of about 512 prompt tokens and 128 output tokens.
workload() {
	local out="$1" n="$2" words=() i
	words=(harbour dawn tide lantern rope gull anchor mast sail pier)
	local prompt=""
	for ((i = 0; i < 508; i++)); do
		prompt+="${words[i % ${#words[@]}]} "
	done
	: >"$out"
	for ((i = 1; i <= n; i++)); do
		printf '{"id": "gpu-%03d", "prompt": "%d %s", "max_tokens": 128, "ignore_eos": true, "class": "prefill512"}\n' \
			"$i" "$i" "$prompt" >>"$out"
	done
}

prepare() {
	local bundle="$1"
	[[ -n "$bundle" ]] || die "usage: $0 prepare BUNDLE"
	command -v go >/dev/null 2>&1 || die "prepare needs Go"
	mkdir -p "$bundle/bin" "$bundle/suite" "$bundle/ollama/bin"
	bundle="$(cd "$bundle" && pwd)"
	cd "$repo"
	stage "static Go binaries" env CGO_ENABLED=0 go build -trimpath -o "$bundle/bin/servebench" ./cmd/servebench
	env CGO_ENABLED=0 go build -trimpath -o "$bundle/bin/tinygguf" ./fixtures/gguf/cmd/tinygguf
	stage "GPU contracts suite" env CGO_ENABLED=0 go test -c -trimpath -o "$bundle/bin/gpu-contracts.test" ./examples/gpu
	rm -rf "$bundle/suite/contracts"
	cp -r examples/gpu/contracts "$bundle/suite/contracts"
	local ollama="${OLLAMA_BIN:-}"
	if [[ -z "$ollama" ]]; then
		ollama="$(bash .ci/build-ollama.sh | tail -n 1)"
	fi
	[[ -x "$ollama" ]] || die "no Ollama binary at $ollama"
	cp "$ollama" "$bundle/ollama/bin/ollama"
	if command -v strip >/dev/null 2>&1 && file "$bundle/ollama/bin/ollama" 2>/dev/null | grep -q ELF; then
		strip "$bundle/ollama/bin/ollama" || true
	fi
	stage "Ollama CUDA sources" bash .ci/build-ollama-cuda.sh pack "$bundle/ollama-cuda-src.tar.xz"
	cp .ci/build-ollama-cuda.sh "$bundle/build-ollama-cuda.sh"
	workload "$bundle/workload.jsonl" 400
	log "bundle ready: $bundle ($(du -sh "$bundle" | cut -f1)); copy it to the GPU host and run: $0 run BUNDLE"
}

# check_bundle fails naming the first missing piece.
check_bundle() {
	local b="$1" f
	for f in bin/servebench bin/tinygguf bin/gpu-contracts.test ollama/bin/ollama build-ollama-cuda.sh; do
		[[ -x "$b/$f" ]] || die "the bundle lacks $f: make it with '$0 prepare $b' on a machine with Go"
	done
	for f in ollama-cuda-src.tar.xz workload.jsonl suite/contracts; do
		[[ -e "$b/$f" ]] || die "the bundle lacks $f: make it with '$0 prepare $b' on a machine with Go"
	done
}

# check_cli fails (or warns in a dry run) when the CLI lacks the telemetry flags.
check_cli() {
	local cli="$1" dry="$2" flag
	for flag in gpu-sample-interval dcgm-url; do
		if ! "$cli" run -h 2>&1 | grep -q -- "-$flag"; then
			[[ "$dry" == 1 ]] || die "the servebench CLI in the bundle has no --$flag: prepare the bundle from a tree with GPU telemetry"
			log "warning: the servebench CLI in the bundle has no --$flag yet; a real run needs it"
		fi
	done
}

# gpu_name prints the first GPU's name, or fails saying there is no GPU.
gpu_name() {
	command -v nvidia-smi >/dev/null 2>&1 ||
		die "no NVIDIA GPU on this host: nvidia-smi is not on PATH (this script qualifies a GPU host; use --dry-run elsewhere)"
	local name
	name="$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)" ||
		die "nvidia-smi failed: no usable NVIDIA GPU or driver"
	[[ -n "$name" ]] || die "nvidia-smi lists no GPU"
	printf '%s\n' "$name"
}

# free_port prints a free TCP port on 127.0.0.1.
free_port() {
	local p
	for p in $(seq 20000 20100); do
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			printf '%s\n' "$p"
			return
		fi
	done
	die "no free port in 20000-20100"
}

# serve starts ollama serve on a free loopback port with the model created
# as "gpu", and sets OLLAMA_URL and OLLAMA_PID.
serve() {
	local b="$1" out="$2" model="$3"
	local port
	port="$(free_port)"
	mkdir -p "$out/ollama-models"
	printf 'FROM %s\nTEMPLATE "{{ .Prompt }}"\nPARAMETER num_ctx 4096\nPARAMETER num_predict 256\n' "$model" >"$out/Modelfile"
	OLLAMA_HOST="127.0.0.1:$port" OLLAMA_MODELS="$out/ollama-models" OLLAMA_NUM_PARALLEL=16 OLLAMA_NO_CLOUD=1 \
		LD_LIBRARY_PATH="${CUDA_HOME:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		"$b/ollama/bin/ollama" serve >"$out/ollama.log" 2>&1 &
	OLLAMA_PID=$!
	OLLAMA_URL="http://127.0.0.1:$port"
	local i
	for ((i = 0; i < 100; i++)); do
		if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			break
		fi
		sleep 0.2
	done
	OLLAMA_HOST="127.0.0.1:$port" "$b/ollama/bin/ollama" create gpu -f "$out/Modelfile" >&2
	grep -E 'library=CUDA|load_backend' "$out/ollama.log" >&2 || log "warning: the Ollama log shows no CUDA backend"
}

run_check() {
	local dry=0
	if [[ "${1:-}" == "--dry-run" ]]; then
		dry=1
		shift
	fi
	local b="${1:-}" out="${2:-gpu-check-$(date -u +%Y%m%dT%H%M%SZ)}"
	[[ -n "$b" ]] || die "usage: $0 run [--dry-run] BUNDLE [OUT]"
	b="$(cd "$b" && pwd)"
	mkdir -p "$out"
	out="$(cd "$out" && pwd)"
	check_bundle "$b"
	local gpu=""
	if [[ "$dry" == 0 ]]; then
		gpu="$(gpu_name)"
		log "GPU: $gpu"
	fi
	check_cli "$b/bin/servebench" "$dry"

	local model="$b/suite/models/ollama-gpu.gguf"
	mkdir -p "$b/suite/models"
	if [[ "$dry" == 1 ]]; then
		# The tiny preset: the same writer, seconds instead of 1.66 GB.
		stage "model (dry run: the tiny preset)" "$b/bin/tinygguf" -o "$model"
		# Without SERVEBENCH_REQUIRE_GPU the compiled suite loads the
		# contracts and skips them for want of a GPU.
		stage "Ginkgo suite (dry run: specs skip)" env -C "$b/suite" "$b/bin/gpu-contracts.test" \
			-ginkgo.junit-report "$out/suite-junit.xml" >"$out/suite.txt" 2>&1 ||
			die "the compiled suite failed without a GPU: see $out/suite.txt"
		grep -E 'Ran [0-9]+ of [0-9]+ Specs' "$out/suite.txt" >&2 || true
		stage "CUDA build plan" env OLLAMA_SRC="$b/ollama-cuda-src.tar.xz" OLLAMA_PREFIX="$b/ollama" \
			bash "$b/build-ollama-cuda.sh" plan
		log "dry run: stopping before the CUDA build"
		return
	fi

	stage "CUDA backend" env OLLAMA_SRC="$b/ollama-cuda-src.tar.xz" OLLAMA_PREFIX="$b/ollama" \
		bash "$b/build-ollama-cuda.sh" build
	[[ -f "$model" ]] || stage "model" "$b/bin/tinygguf" -o "$model" "${model_flags[@]}"

	stage "ollama serve" serve "$b" "$out" "$model"
	trap 'kill "$OLLAMA_PID" 2>/dev/null || true' EXIT
	local telemetry=(--gpu-sample-interval "${GPU_SAMPLE_INTERVAL:-250ms}")
	if [[ -n "${DCGM_URL:-}" ]]; then
		telemetry+=(--dcgm-url "$DCGM_URL")
	fi
	local common=(--base-url "$OLLAMA_URL" --model gpu --endpoint completions --workload "$b/workload.jsonl"
		--arrival poisson --duration "${WINDOW:-15s}" --ttft-slo 500ms --tpot-slo 50ms
		--length-control unsupported --no-progress "${telemetry[@]}")
	local rc=0
	stage "CLI sweep" "$b/bin/servebench" sweep "${common[@]}" --rates "${RATES:-4,8,12,16,24}" \
		--output "$out/sweep" --format text >"$out/sweep.txt" || rc=$?
	stage "CLI SLO run" "$b/bin/servebench" run "${common[@]}" --rate 4 \
		--output "$out/slo" --format text >"$out/slo.txt" || rc=$?
	kill "$OLLAMA_PID" 2>/dev/null || true
	wait "$OLLAMA_PID" 2>/dev/null || true
	trap - EXIT

	stage "Ginkgo suite (SERVEBENCH_REQUIRE_GPU=1)" env -C "$b/suite" SERVEBENCH_REQUIRE_GPU=1 \
		SERVEBENCH_OLLAMA_BIN="$b/ollama/bin/ollama" \
		LD_LIBRARY_PATH="${CUDA_HOME:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		"$b/bin/gpu-contracts.test" -test.v -ginkgo.v -ginkgo.junit-report "$out/suite-junit.xml" \
		>"$out/suite.txt" 2>&1 || rc=$?
	{
		echo "GPU: $gpu"
		nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv
	} >"$out/host.txt"
	log "reports in $out: sweep.txt sweep/ slo.txt slo/ suite.txt suite-junit.xml host.txt ollama.log (exit $rc)"
	return "$rc"
}

case "${1:-}" in
prepare) prepare "${2:-}" ;;
run)
	shift
	run_check "$@"
	;;
*) die "usage: $0 prepare BUNDLE | run [--dry-run] BUNDLE [OUT]" ;;
esac
