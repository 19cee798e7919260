package suites

import "github.com/servebench/servebench/servebench/schedule"

// history reads `history: engine | workload`: what the later turns of the
// workload's conversations carry as the earlier answers (see
// servebench.RunConfig.TurnHistory). Absent means engine.
func (d *decoder) history(m *mapping, c *Contract) {
	s := d.str(m, "history")
	if s == "" {
		return
	}
	h, err := schedule.ParseTurnHistory(s)
	if err != nil {
		d.errorf(m.get("history"), "history", "%v", err)
		return
	}
	c.TurnHistory = h
}
