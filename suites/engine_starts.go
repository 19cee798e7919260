package suites

import (
	"context"
	"fmt"
	"time"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// startRepeatedly starts the contract's engine engine.starts times (at
// least once), each start bounded by the startup budget
// (timeouts.startup) and followed by a probe for its first token, and
// stops every engine but the last, which it returns with every start's
// record.
func (c *Contract) startRepeatedly(ctx context.Context) (Engine, []report.EngineStart, error) {
	n := max(1, c.Engine.Starts)
	var starts []report.EngineStart
	for i := range n {
		eng, start, err := c.startOnce(ctx)
		if err != nil {
			if n > 1 {
				err = fmt.Errorf("start %d of %d: %w", i+1, n, err)
			}
			return nil, nil, err
		}
		starts = append(starts, start)
		if i == n-1 {
			return eng, starts, nil
		}
		if err := eng.Shutdown(context.WithoutCancel(ctx)); err != nil {
			return nil, nil, fmt.Errorf("stop after start %d of %d: %w", i+1, n, err)
		}
	}
	panic("unreachable")
}

// startOnce starts the engine within the startup budget and sends the
// workload's first row, its output capped, as the first request after
// readiness: the start's record gives the time to its first token (none
// when the probe failed; the load points then say why).
func (c *Contract) startOnce(ctx context.Context) (Engine, report.EngineStart, error) {
	startCtx, cancel := context.WithTimeout(ctx, c.startupBudget())
	defer cancel()
	eng, err := StartEngine(startCtx, *c.Engine)
	returned := time.Now()
	if err != nil {
		return nil, report.EngineStart{}, err
	}
	times := containers.StartTimesOf(eng, returned)
	return eng, containers.EngineStart(times, c.probeFirstToken(startCtx, targetOf(eng))), nil
}

// probeFirstToken sends the workload's first row to target and returns
// when its first content arrived; zero when none did.
func (c *Contract) probeFirstToken(ctx context.Context, target Target) time.Time {
	client, err := c.client(target)
	if err != nil || c.Workload == nil || len(c.Workload.Requests) == 0 {
		return time.Time{}
	}
	probe := c.Workload.Requests[0]
	probe.ID, probe.MaxTokens = "startup-probe", min(max(probe.MaxTokens, 1), startupProbeTokens)
	out := &record.Outcome{ID: probe.ID, Attempt: 1}
	origin := time.Now()
	client.Do(ctx, origin, &probe, "startup-probe", out)
	if out.Status != record.StatusSuccess || out.FirstContentMS == nil {
		return time.Time{}
	}
	return origin.Add(time.Duration(*out.FirstContentMS * float64(time.Millisecond)))
}

// startupProbeTokens caps the startup probe's output: its first token is
// what it measures.
const startupProbeTokens = 8
