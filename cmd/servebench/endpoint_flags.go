package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/score"
)

// endpointHelp lists every endpoint with what it is, for --endpoint's
// help.
func endpointHelp() string {
	var b strings.Builder
	b.WriteString("API, one of:")
	for _, e := range record.Endpoints() {
		api, _ := record.APIOf(e)
		fmt.Fprintf(&b, "\n  %s: %s %s", e, api.Path, api.Description)
	}
	return b.String()
}

// checkObjectiveFlags refuses an objective flag on a metric the endpoint
// does not define, naming the flag (--ttft-slo with --endpoint
// embeddings).
func checkObjectiveFlags(e record.Endpoint, ttft, tpot, e2e time.Duration) error {
	err := score.CheckObjectives(e, report.SLO{TTFT: ttft, TPOT: tpot, E2E: e2e})
	var u *score.UndefinedObjectiveError
	if errors.As(err, &u) {
		return fmt.Errorf("--%s-slo with --endpoint %s: %w", u.Objective, e, err)
	}
	return err
}
