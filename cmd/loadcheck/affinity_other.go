//go:build !linux

package main

import "os/exec"

// allowedCPUs is unknown where affinity cannot be set.
func allowedCPUs() []int { return nil }

// startPinned starts cmd unpinned: CPU affinity is set only on Linux.
func startPinned(cmd *exec.Cmd, _ int) (pinned bool, err error) {
	return false, cmd.Start()
}
