//go:build unix && !linux

package containers

import "syscall"

// setParentDeathSignal does nothing where the kernel has no parent-death
// signal; Shutdown stops the engine.
func setParentDeathSignal(*syscall.SysProcAttr) {}
