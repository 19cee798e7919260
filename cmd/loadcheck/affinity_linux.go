package main

import (
	"os/exec"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// allowedCPUs lists the CPUs this process may run on.
func allowedCPUs() []int {
	var set unix.CPUSet
	if unix.SchedGetaffinity(0, &set) != nil {
		return nil
	}
	var cpus []int
	for cpu := range 1024 {
		if set.IsSet(cpu) {
			cpus = append(cpus, cpu)
		}
	}
	return cpus
}

// startPinned starts cmd with its CPU affinity set to cpu alone (unpinned
// for a negative cpu): the
// thread that forks it holds that affinity for the moment of the fork, and
// the child inherits it (sched_setaffinity). It reports whether the
// pinning took; when it did not, cmd runs unpinned.
//
// The child is also killed when loadcheck dies (PR_SET_PDEATHSIG), so that
// an interrupted run leaves no server behind.
func startPinned(cmd *exec.Cmd, cpu int) (pinned bool, err error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	if cpu < 0 {
		return false, cmd.Start()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var old, set unix.CPUSet
	if unix.SchedGetaffinity(0, &old) != nil {
		return false, cmd.Start()
	}
	set.Set(cpu)
	if unix.SchedSetaffinity(0, &set) != nil {
		return false, cmd.Start()
	}
	err = cmd.Start()
	_ = unix.SchedSetaffinity(0, &old)
	return true, err
}
