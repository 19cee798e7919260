package servebench

import (
	"fmt"
	"slices"
	"strings"

	"github.com/servebench/servebench/servebench/schedule"
)

// CheckServedAdapters refuses, before any load, a mix whose adapters the
// engine's model list (GET /v1/models, as openai.CheckServedModel reads
// it into PreflightReport.ServedModels) does not name; "base" is the
// base model and needs no entry. A nil list (an engine without one)
// checks nothing.
func CheckServedAdapters(served []string, mix *schedule.AdapterMix) error {
	if served == nil || mix == nil {
		return nil
	}
	var missing []string
	for _, name := range mix.Names {
		if name != schedule.BaseAdapter && !slices.Contains(served, name) {
			missing = append(missing, name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("adapter %s not served here (GET /v1/models lists %s)", quoteAll(missing), strings.Join(served, ", "))
}

// quoteAll quotes and joins names.
func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
