//go:build !linux

package sleep

import (
	"errors"
	"time"
)

// alarm is Linux's timerfd; elsewhere there is none and the timer
// finishes every wait.
type alarm struct{}

// newAlarm has no alarm to give outside Linux.
func newAlarm() *alarm { return nil }

// wait is never reached: there is no alarm.
func (*alarm) wait(time.Time) error { return errors.ErrUnsupported }

// close has nothing to release.
func (*alarm) close() {}
