//go:build unix

package module

import (
	"errors"
	"syscall"
)

// processGroupAttr starts the engine as the leader of a new process group,
// so that signals reach the processes it starts too.
func processGroupAttr() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(attr)
	return attr
}

// politeStop sends SIGTERM to the process group.
func politeStop(pgid int) {
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
}

// killGroup sends SIGKILL to the process group; a group that no longer
// exists is not an error.
func killGroup(pgid int) error {
	if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}
