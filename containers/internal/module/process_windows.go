//go:build windows

package module

import (
	"os"
	"syscall"
)

// processGroupAttr has nothing to set on Windows; Shutdown stops only the
// engine process itself there.
func processGroupAttr() *syscall.SysProcAttr { return nil }

// politeStop kills the engine at once: Windows has no SIGTERM to send.
func politeStop(pid int) { _ = killGroup(pid) }

// killGroup kills the engine process.
func killGroup(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return nil
	}
	if err := p.Kill(); err != nil && err != os.ErrProcessDone {
		return err
	}
	return nil
}
