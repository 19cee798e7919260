package suites

import "time"

// StartupObjective bounds every start of the contract's engine
// (report.json's engine_starts; engine.starts repeats the start), each
// time counted from the container's or process's start, an image pull
// not included (matchers.HaveStartupWithin). timeouts.startup stays the
// deadline that aborts a start.
type StartupObjective struct {
	// ReadyWithin bounds the time to the first successful readiness
	// probe; 0 is not declared.
	ReadyWithin time.Duration
	// FirstTokenWithin bounds the time to the first token of the first
	// request after readiness; 0 is not declared.
	FirstTokenWithin time.Duration
}

// startup reads `startup: {ready_within: 120s, first_token_within: 150s}`:
// positive durations, at least one given, and an engine section (only the
// starts servebench makes are measured).
func (d *decoder) startup(o *mapping, c *Contract) *StartupObjective {
	if !o.has("startup") {
		return nil
	}
	const path = "objectives.startup"
	sm := d.mapping(o.get("startup"), path, "ready_within", "first_token_within")
	if sm == nil {
		return nil
	}
	if len(sm.node.Content) == 0 {
		d.errorf(o.get("startup"), path, "declare ready_within, first_token_within or both")
		return nil
	}
	if c.Engine == nil {
		d.errorf(o.get("startup"), path, "needs an engine section: servebench measures only the starts it makes (a base_url's engine was running before)")
		return nil
	}
	return &StartupObjective{ReadyWithin: d.duration(sm, "ready_within"), FirstTokenWithin: d.duration(sm, "first_token_within")}
}
