package servebench

import (
	"errors"
	"fmt"
	"sort"

	"github.com/servebench/servebench/internal/oneline"
	"github.com/servebench/servebench/servebench/record"
)

// ErrWarmupFailed is wrapped by the error of a run whose every warmup
// request failed: the engine cannot serve the workload, so no load is sent.
var ErrWarmupFailed = errors.New("every warmup request failed")

// checkWarmup returns an error wrapping ErrWarmupFailed when no warmup
// request succeeded, quoting the most common failure as the engine gave
// it. A warmup cut short by cancellation is not judged here.
func checkWarmup(outs []record.Outcome) error {
	if len(outs) == 0 {
		return nil
	}
	counts := map[string]int{}
	for _, o := range outs {
		if o.Status == record.StatusSuccess || o.Status == record.StatusCancelled {
			return nil
		}
		counts[string(o.Status)+": "+o.Error]++
	}
	msgs := make([]string, 0, len(counts))
	for m := range counts {
		msgs = append(msgs, m)
	}
	sort.Slice(msgs, func(i, j int) bool {
		if counts[msgs[i]] != counts[msgs[j]] {
			return counts[msgs[i]] > counts[msgs[j]]
		}
		return msgs[i] < msgs[j]
	})
	return fmt.Errorf("%w (%d of %d); the engine said: %s (%d×); no load was sent",
		ErrWarmupFailed, len(outs), len(outs), oneline.Shorten(msgs[0]), counts[msgs[0]])
}
