package score

import (
	"hash"
	"io"
)

// readAheadBlock and readAheadBlocks size the read-ahead: blocks of 1 MiB,
// four of them in flight.
const (
	readAheadBlock  = 1 << 20
	readAheadBlocks = 4
)

// readAhead reads r on a goroutine of its own, in blocks, ahead of the
// reader; when h is set it hashes every block there as well. So the
// file's reading (and its waits on the disk) and its hashing overlap the
// decoding of the lines already read, on another core. Close stops the
// goroutine; it must be called.
type readAhead struct {
	full  chan readAheadChunk
	free  chan []byte
	stop  chan struct{}
	done  chan struct{}
	cur   []byte
	block []byte
	err   error
}

// readAheadChunk is one block read, or the error that ended the reading.
type readAheadChunk struct {
	data []byte
	err  error
}

// newReadAhead starts reading r; h may be nil.
func newReadAhead(r io.Reader, h hash.Hash) *readAhead {
	ra := &readAhead{full: make(chan readAheadChunk, readAheadBlocks), free: make(chan []byte, readAheadBlocks+1),
		stop: make(chan struct{}), done: make(chan struct{})}
	for range readAheadBlocks + 1 {
		ra.free <- make([]byte, readAheadBlock)
	}
	go ra.fill(r, h)
	return ra
}

// fill reads blocks until the end of r, an error or Close.
func (ra *readAhead) fill(r io.Reader, h hash.Hash) {
	defer close(ra.done)
	defer close(ra.full)
	for {
		var buf []byte
		select {
		case buf = <-ra.free:
		case <-ra.stop:
			return
		}
		n, err := io.ReadFull(r, buf)
		if n > 0 && h != nil {
			h.Write(buf[:n])
		}
		if err == io.ErrUnexpectedEOF {
			err = io.EOF
		}
		select {
		case ra.full <- readAheadChunk{data: buf[:n], err: err}:
		case <-ra.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// Read copies from the blocks read ahead.
func (ra *readAhead) Read(p []byte) (int, error) {
	for len(ra.cur) == 0 {
		if ra.err != nil {
			return 0, ra.err
		}
		if ra.block != nil {
			ra.free <- ra.block[:cap(ra.block)]
			ra.block = nil
		}
		c, ok := <-ra.full
		if !ok {
			ra.err = io.EOF
			continue
		}
		ra.block, ra.cur, ra.err = c.data, c.data, c.err
	}
	n := copy(p, ra.cur)
	ra.cur = ra.cur[n:]
	return n, nil
}

// Close stops the reading goroutine and waits for it.
func (ra *readAhead) Close() error {
	close(ra.stop)
	<-ra.done
	return nil
}
