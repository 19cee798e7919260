#!/usr/bin/env bash
# Runs the test suite several times on a machine made busy on purpose, to
# show that no test depends on wall-clock timing the machine cannot give:
# two shell busy loops hold both cores of a 2-core machine (set
# FLAKE_BUSY_LOOPS to match another machine) while `go test -count=1 ./...`
# runs RUNS times (default 5). It prints each run's failures and, last, how
# many runs passed; it exits 0 only when every run passed.
#
#   bash .ci/flake-check.sh [RUNS]
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

runs="${1:-5}"
loops="${FLAKE_BUSY_LOOPS:-2}"
export TESTCONTAINERS_RYUK_DISABLED=true
export TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1

busy_pids=()
stop_busy() {
	for pid in "${busy_pids[@]}"; do
		kill "$pid" 2>/dev/null
	done
}
trap stop_busy EXIT
for _ in $(seq 1 "$loops"); do
	(while :; do :; done) &
	busy_pids+=("$!")
done

log="$(mktemp)"
passed=0
for i in $(seq 1 "$runs"); do
	t0=$SECONDS
	if go test -count=1 ./... >"$log" 2>&1; then
		passed=$((passed + 1))
		echo "run $i of $runs: pass ($((SECONDS - t0)) s)"
	else
		echo "run $i of $runs: FAIL ($((SECONDS - t0)) s)"
		grep -E -A3 '^(--- FAIL|FAIL|panic:)|\[FAIL\]' "$log" | head -60
	fi
done
rm -f "$log"
echo "flake-check: $passed of $runs runs passed with $loops busy loops holding the cores"
[ "$passed" -eq "$runs" ]
