package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/servebench/servebench/fixtures"
	"github.com/servebench/servebench/servebench/schedule"
)

// resetPrefixCacheHelp is --reset-prefix-cache's help.
const resetPrefixCacheHelp = "empty the engine's prefix cache after the preflight and before the warmup of the run (of each sweep point, of each ab round): POST /reset_prefix_cache (vLLM, which serves it only with VLLM_SERVER_DEV_MODE=1), else /flush_cache (SGLang); a failed reset exits 1 before any load, and report.json's cache_state says reset (else uncontrolled)"

// declaredCachePolicy is the prefix-cache policy the workload's side file
// (fixtures.MetaPath: NAME.meta.json beside NAME.jsonl, as servebench
// workload generate writes it) declares for exactly these bytes; "" when
// there is no side file, it declares none, or it describes other bytes.
func declaredCachePolicy(path string, w *schedule.Workload) (string, error) {
	if path == "" {
		return "", nil
	}
	b, err := os.ReadFile(fixtures.MetaPath(path))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("--workload: the side file: %w", err)
	}
	var meta fixtures.Meta
	if err := json.Unmarshal(b, &meta); err != nil {
		return "", fmt.Errorf("--workload: the side file %s: %w", fixtures.MetaPath(path), err)
	}
	if meta.WorkloadSHA256 != w.SHA256 || meta.Summary == nil {
		return "", nil
	}
	return string(meta.Summary.CachePolicy), nil
}
