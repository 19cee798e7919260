package fdtable

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// tableSize is the FDSize line of /proc/self/status: how many descriptors
// the process's table holds now.
func tableSize(t *testing.T) int {
	t.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "FDSize:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no FDSize in /proc/self/status")
	return 0
}

// openCount is how many descriptors the process has open.
func openCount(t *testing.T) int {
	t.Helper()
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}

func TestReserveGrowsTheTableAndLeavesNothingOpen(t *testing.T) {
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	want := min(3000, int(lim.Cur))
	if tableSize(t) >= want {
		t.Skipf("the table already holds %d descriptors; this test needs it below %d", tableSize(t), want)
	}
	open := openCount(t)
	got, err := Reserve(3000)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("Reserve(3000) = %d, want %d (RLIMIT_NOFILE %d)", got, want, lim.Cur)
	}
	if size := tableSize(t); size < want {
		t.Errorf("FDSize %d after Reserve, want at least %d", size, want)
	}
	if now := openCount(t); now != open {
		t.Errorf("%d descriptors open after Reserve, %d before", now, open)
	}
}

func TestReserveKeepsADescriptorAtItsBound(t *testing.T) {
	f, err := os.Open("/dev/null")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Place a descriptor at the lowest free number from 200 up, then
	// reserve exactly up to it: it must stay open.
	at, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 200)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(at)
	open := openCount(t)
	if _, err := Reserve(at + 1); err != nil {
		t.Fatal(err)
	}
	if _, err := unix.FcntlInt(uintptr(at), unix.F_GETFD, 0); err != nil {
		t.Errorf("descriptor %d after Reserve(%d): %v", at, at+1, err)
	}
	if now := openCount(t); now != open {
		t.Errorf("%d descriptors open after Reserve, %d before", now, open)
	}
}

func TestReserveOfNothing(t *testing.T) {
	if got, err := Reserve(0); got != 0 || err != nil {
		t.Errorf("Reserve(0) = %d, %v; want 0, nil", got, err)
	}
}
