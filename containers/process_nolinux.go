//go:build unix && !linux

package containers

import "syscall"

// setParentDeathSignal does nothing where the kernel has no parent-death
// signal; Terminate stops the engine.
func setParentDeathSignal(*syscall.SysProcAttr) {}
