package suites

import (
	"fmt"
	"strconv"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// LoadPoint is one offered load of a contract: one rate of an open-loop
// process, or the contract's replay or closed loop.
type LoadPoint struct {
	// RateRPS is the offered rate; zero for replay and closed loop.
	RateRPS float64
	// Name describes the load in spec names: "at 4 req/s", "closed loop
	// with 8 users" ("closed loop with 8 users for 30s" when bounded by
	// time), "replay at x1".
	Name string
	// Dir names the load point's run directories: "4rps", "closed-8users",
	// "replay-x1".
	Dir string
}

// Points lists the contract's load points in the order they run.
func (c *Contract) Points() []LoadPoint {
	a := c.Arrival
	switch a.Process {
	case schedule.ProcessClosed:
		if a.UsersAuto {
			return []LoadPoint{userSearchPoint}
		}
		name := fmt.Sprintf("closed loop with %d users", a.Users)
		if c.Duration > 0 {
			name += " for " + c.Duration.String()
		}
		return []LoadPoint{{Name: name, Dir: fmt.Sprintf("closed-%dusers", a.Users)}}
	case schedule.ProcessReplay:
		x := strconv.FormatFloat(a.TimeScale, 'f', -1, 64)
		return []LoadPoint{{Name: "replay at x" + x, Dir: "replay-x" + x}}
	}
	out := make([]LoadPoint, len(a.Rates))
	for i, r := range a.Rates {
		x := strconv.FormatFloat(r, 'f', -1, 64)
		out[i] = LoadPoint{RateRPS: r, Name: fmt.Sprintf("%s %s at %s req/s", a.Process, c.countLabel(), x), Dir: x + "rps"}
	}
	return out
}

// countLabel says how long a load point is: "200 requests" or "for 30s".
func (c *Contract) countLabel() string {
	if c.Count > 0 {
		return fmt.Sprintf("%d requests", c.Count)
	}
	return "for " + c.Duration.String()
}

// defaultRequestBound stands in for the total deadline when the contract
// declares none, in the run budget.
const defaultRequestBound = 2 * time.Minute

// RunBudget bounds one load point: timeouts.run when declared, else one and
// a half times the arrival window plus a request's total deadline for the
// warmup and another for the drain, plus half a minute.
func (c *Contract) RunBudget(p LoadPoint) time.Duration {
	if c.Timeouts.Run > 0 {
		return c.Timeouts.Run
	}
	perRequest := c.Timeouts.Total
	if perRequest == 0 {
		perRequest = defaultRequestBound
	}
	var window time.Duration
	switch {
	case c.Duration > 0:
		window = c.Duration
	case p.RateRPS > 0:
		window = time.Duration(float64(c.Count) / p.RateRPS * float64(time.Second))
	case c.Arrival.Process == schedule.ProcessClosed:
		users := max(c.Arrival.Users, 1) // a user search's first run may have one
		rounds := (c.Count + users - 1) / users
		window = time.Duration(rounds) * (perRequest + record.FromMillis(c.Arrival.ThinkTimeMS))
	case c.Arrival.Process == schedule.ProcessReplay:
		for _, r := range c.Workload.Requests {
			if r.ScheduledMS != nil {
				window = max(window, time.Duration(*r.ScheduledMS*c.Arrival.TimeScale*float64(time.Millisecond)))
			}
		}
	}
	warmup := time.Duration(0)
	if c.Warmup > 0 {
		warmup = perRequest
	}
	return window*3/2 + warmup + perRequest + 30*time.Second
}
