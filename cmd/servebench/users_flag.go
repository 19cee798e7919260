package main

import (
	"fmt"
	"strconv"
)

// usersFlag is --users: a number of closed-loop users, or "auto", with
// which sweep searches the SLO concurrency.
type usersFlag struct {
	n    int
	auto bool
}

func (u *usersFlag) String() string {
	if u.auto {
		return "auto"
	}
	return strconv.Itoa(u.n)
}

// Set reads a number or "auto".
func (u *usersFlag) Set(s string) error {
	if s == "auto" {
		u.n, u.auto = 0, true
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("want a number of users or auto, got %q", s)
	}
	u.n, u.auto = n, false
	return nil
}
