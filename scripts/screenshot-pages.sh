#!/usr/bin/env bash
# screenshot-pages.sh renders every kind of HTML page servebench writes and
# saves a screenshot of each, as a laptop shows it (1366x768: the first
# screen) and at the same width 3000 pixels tall (the page further down),
# with headless Chromium.
#
#   scripts/screenshot-pages.sh [OUT]   # default OUT: a new temporary directory
#
# It makes the pages itself from the embedded simulated engine: two short
# demos (report.html per rate, sweep.html), the comparison of two of their
# runs (compare.html) and the Pareto front of both sweeps (pareto.html).
# Needs Go and Chromium (Debian: apt-get install chromium). Nothing leaves
# the machine: the engine listens on 127.0.0.1 and Chromium runs with a
# fresh profile and its background networking off.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out="${1:-$(mktemp -d -t servebench-pages-XXXXXX)}"
mkdir -p "$out/pages" "$out/png"
chrome="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
if [[ -z "$chrome" ]]; then
  echo "screenshot-pages.sh: no Chromium found (Debian: apt-get install chromium)" >&2
  exit 1
fi
bin="$out/servebench"
go build -o "$bin" ./cmd/servebench

# Two engine configurations: the default and one twice as slow.
"$bin" demo --duration 2s --rates 4,8,16 --output "$out/pages/sweep-fast" > "$out/demo-fast.txt"
"$bin" demo --duration 2s --rates 4,8,16 --time-scale 0.5 --output "$out/pages/sweep-slow" > "$out/demo-slow.txt"
"$bin" compare --allow-different-workloads --format html --output "$out/pages/compare.html" \
  "$out/pages/sweep-fast/rate-8" "$out/pages/sweep-slow/rate-8" > /dev/null || true
"$bin" pareto --labels fast,slow --format html --output "$out/pages/pareto.html" \
  "$out/pages/sweep-fast" "$out/pages/sweep-slow" > /dev/null

shot() { # shot PAGE NAME HEIGHT
  local profile
  profile="$(mktemp -d)"
  "$chrome" --headless --no-sandbox --disable-gpu --disable-quic --disable-background-networking --disable-component-update \
    --disable-sync --no-first-run --hide-scrollbars --user-data-dir="$profile" --window-size="1366,$3" \
    --screenshot="$out/png/$2.png" "file://$1" > /dev/null 2>&1
  rm -rf "$profile"
  echo "$out/png/$2.png"
}
pages=(
  "$out/pages/sweep-fast/sweep.html:sweep"
  "$out/pages/sweep-fast/rate-8/report.html:report"
  "$out/pages/compare.html:compare"
  "$out/pages/pareto.html:pareto"
)
for entry in "${pages[@]}"; do
  page="${entry%:*}" name="${entry##*:}"
  [[ -f "$page" ]] || { echo "screenshot-pages.sh: $page was not written" >&2; exit 1; }
  shot "$page" "$name" 768
  shot "$page" "$name-long" 3000
done
