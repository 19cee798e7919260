package fdtable

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// Reserve grows the descriptor table so that descriptors below n, or
// below the soft RLIMIT_NOFILE where that is lower, open without growing
// it, and returns that bound. It leaves no descriptor open and closes
// none: the table grows by duplicating a descriptor of /dev/null to the
// lowest free number at or above the bound less one, which is then closed.
func Reserve(n int) (int, error) {
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		return 0, fmt.Errorf("fdtable: RLIMIT_NOFILE: %w", err)
	}
	bound := n
	if lim.Cur < uint64(bound) {
		bound = int(lim.Cur)
	}
	if bound <= 0 {
		return 0, nil
	}
	null, err := unix.Open("/dev/null", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0, fmt.Errorf("fdtable: %w", err)
	}
	defer unix.Close(null)
	high, err := unix.FcntlInt(uintptr(null), unix.F_DUPFD_CLOEXEC, bound-1)
	switch {
	case err == unix.EMFILE:
		// Every number from bound-1 up to the limit is taken: the
		// table is already that large.
		return bound, nil
	case err != nil:
		return 0, fmt.Errorf("fdtable: growing to %d descriptors: %w", bound, err)
	}
	return bound, unix.Close(high)
}
