//go:build linux

package module

import "syscall"

// setParentDeathSignal asks the kernel to kill the engine when the thread
// that started it dies, so an engine does not outlive a test binary killed
// by a timeout. It is a safety net only: Shutdown is the way to stop it.
func setParentDeathSignal(attr *syscall.SysProcAttr) {
	attr.Pdeathsig = syscall.SIGKILL
}
