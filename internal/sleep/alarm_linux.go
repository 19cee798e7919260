package sleep

import (
	"errors"
	"os"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// alarm is a timerfd that the runtime's network poller watches. Its two
// system calls (arming it and reading it, both non-blocking) are raw: a
// call the runtime sees entering the kernel may lose its processor to the
// runtime's monitor when the machine's scheduler runs another thread in the
// meantime, and the goroutine just started would wait for a thread to be
// woken to run it.
type alarm struct {
	fd   int
	file *os.File
	conn syscall.RawConn
	buf  [8]byte
	// armed is set when the timerfd has just been armed: the next read
	// would find nothing and is not made, the goroutine parks at once.
	armed bool
	// read is one non-blocking read of the expiration count; it reports
	// whether the poller need not wait (anything but EAGAIN).
	read func(fd uintptr) bool
}

// alarmsMade counts the alarms in existence; alarmsBroken is set once one
// could not be made, so that later waits go to the timer at once.
var (
	alarmsMade   atomic.Int32
	alarmsBroken atomic.Bool
)

// newAlarm makes an alarm while fewer than alarmSlots exist; nil when it
// may not or cannot.
func newAlarm() *alarm {
	if alarmsBroken.Load() {
		return nil
	}
	if alarmsMade.Add(1) > alarmSlots {
		alarmsMade.Add(-1)
		return nil
	}
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		alarmsMade.Add(-1)
		alarmsBroken.Store(true)
		return nil
	}
	a := &alarm{fd: fd, file: os.NewFile(uintptr(fd), "sleep-alarm")}
	if a.conn, err = a.file.SyscallConn(); err != nil {
		a.close()
		alarmsBroken.Store(true)
		return nil
	}
	a.read = func(fd uintptr) bool {
		if a.armed {
			// Just armed, the count is zero; a timerfd that has already
			// fired again has made the descriptor readable, and the
			// poller returns at once to the read below.
			a.armed = false
			return false
		}
		_, _, errno := unix.RawSyscall(unix.SYS_READ, fd, uintptr(unsafe.Pointer(&a.buf[0])), uintptr(len(a.buf)))
		return errno != unix.EAGAIN
	}
	return a
}

// wait parks the goroutine until at: the timerfd is armed for the time
// left and read through the poller, with a read deadline at at, so that
// whichever of the two the runtime sees first ends the wait. It returns
// nil once at has passed, or the error that stopped it.
func (a *alarm) wait(at time.Time) error {
	for {
		left := time.Until(at)
		if left <= 0 {
			return nil
		}
		spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(left))}
		if _, _, errno := unix.RawSyscall6(unix.SYS_TIMERFD_SETTIME, uintptr(a.fd), 0, uintptr(unsafe.Pointer(&spec)), 0, 0, 0); errno != 0 {
			return errno
		}
		if err := a.file.SetReadDeadline(at); err != nil {
			return err
		}
		a.armed = true
		if err := a.conn.Read(a.read); err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			return err
		}
	}
}

// close releases the alarm's descriptor.
func (a *alarm) close() {
	_ = a.file.Close()
	alarmsMade.Add(-1)
}
