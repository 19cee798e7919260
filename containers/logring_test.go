package containers

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"github.com/testcontainers/testcontainers-go"
)

func TestLogRingKeepsEverythingUnderTheBound(t *testing.T) {
	r := NewLogRing(100)
	r.Accept(testcontainers.Log{LogType: testcontainers.StdoutLog, Content: []byte("loading weights\n")})
	r.Accept(testcontainers.Log{LogType: testcontainers.StderrLog, Content: []byte("ready\n")})
	if got := r.String(); got != "loading weights\nready\n" {
		t.Errorf("kept %q", got)
	}
	if r.Dropped() != 0 {
		t.Errorf("dropped %d", r.Dropped())
	}
}

func TestLogRingDropsOldestWholeLines(t *testing.T) {
	r := NewLogRing(10)
	// 6 + 6 bytes: 2 over the bound of 10. The cut moves from byte 2 to the
	// end of the first line (byte 6), so whole lines remain.
	_, _ = r.Write([]byte("aaaaa\n"))
	_, _ = r.Write([]byte("bbbbb\n"))
	if got := string(r.Bytes()); got != "bbbbb\n" {
		t.Errorf("kept %q, want %q", got, "bbbbb\n")
	}
	if r.Dropped() != 6 {
		t.Errorf("dropped %d, want 6", r.Dropped())
	}
	if got := r.String(); got != "[6 earlier bytes dropped]\nbbbbb\n" {
		t.Errorf("String() = %q", got)
	}
}

func TestLogRingCutsInsideALineWithoutANewline(t *testing.T) {
	r := NewLogRing(4)
	_, _ = r.Write([]byte("0123456789"))
	if got := string(r.Bytes()); got != "6789" {
		t.Errorf("kept %q, want the last 4 bytes", got)
	}
	if r.Dropped() != 6 {
		t.Errorf("dropped %d, want 6", r.Dropped())
	}
}

func TestLogRingDefaultBoundAndWriteTo(t *testing.T) {
	r := NewLogRing(0)
	line := strings.Repeat("x", 1023) + "\n"
	for range 300 { // 300 KiB into a 256 KiB ring
		_, _ = r.Write([]byte(line))
	}
	if n := len(r.Bytes()); n != DefaultLogBufferBytes {
		t.Errorf("kept %d bytes, want %d (256 whole 1 KiB lines)", n, DefaultLogBufferBytes)
	}
	if r.Dropped() != 44*1024 {
		t.Errorf("dropped %d, want %d", r.Dropped(), 44*1024)
	}
	var buf bytes.Buffer
	n, err := r.WriteTo(&buf)
	if err != nil || n != DefaultLogBufferBytes {
		t.Errorf("WriteTo wrote %d, %v", n, err)
	}
}

func TestLogRingConcurrentWriters(t *testing.T) {
	r := NewLogRing(1 << 20)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				r.Accept(testcontainers.Log{Content: []byte("line\n")})
			}
		})
	}
	wg.Wait()
	if got := strings.Count(r.String(), "line\n"); got != 800 {
		t.Errorf("kept %d lines, want 800", got)
	}
}
