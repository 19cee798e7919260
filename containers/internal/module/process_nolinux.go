//go:build unix && !linux

package module

import "syscall"

// setParentDeathSignal does nothing where the kernel has no parent-death
// signal; Shutdown stops the engine.
func setParentDeathSignal(*syscall.SysProcAttr) {}
