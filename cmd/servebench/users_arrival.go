package main

import (
	"fmt"

	"github.com/servebench/servebench/servebench/schedule"
)

// impliedArrival makes --users alone declare the closed loop, as k6's
// VUs do: a number of users is a closed loop, so --arrival is closed
// unless given, and any other given --arrival is refused naming both.
func (f *runFlags) impliedArrival() error {
	if !f.given["users"] {
		return nil
	}
	if f.given["arrival"] && schedule.Process(f.arrival) != schedule.ProcessClosed {
		return fmt.Errorf("--arrival %s and --users: users run a closed loop; give --arrival closed or leave --arrival out", f.arrival)
	}
	f.arrival = string(schedule.ProcessClosed)
	return nil
}
