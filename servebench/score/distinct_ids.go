package score

import (
	"bufio"
	"encoding/binary"
	"hash/maphash"
	"io"
	"os"
	"slices"
)

// distinctIDs checks that no two schedule entries share an ID in memory
// that does not grow with their number: it hashes each ID to 64 bits,
// sorts the hashes in chunks of idChunk (8 MiB), spills each sorted chunk
// to a temporary file, and merges the chunks looking for two equal
// hashes. Equal hashes are a repeated ID or, about once in 10^6 runs of
// ten million entries, two IDs whose hashes collide; either way the caller
// leaves the schedule to a reader that compares the IDs themselves.
type distinctIDs struct {
	seed   maphash.Seed
	chunk  []uint64
	spills []*os.File
	err    error
}

// idChunk is how many hashes a chunk holds (a variable so that tests can
// make the check spill with few IDs).
var idChunk = 1 << 20

func newDistinctIDs() *distinctIDs {
	return &distinctIDs{seed: maphash.MakeSeed()}
}

// add takes one ID.
func (d *distinctIDs) add(id string) {
	d.chunk = append(d.chunk, maphash.String(d.seed, id))
	if len(d.chunk) >= idChunk {
		d.spill()
	}
}

// spill sorts the chunk and writes it to a temporary file.
func (d *distinctIDs) spill() {
	if d.err != nil {
		return
	}
	slices.Sort(d.chunk)
	f, err := os.CreateTemp("", "servebench-ids-*")
	if err != nil {
		d.err = err
		return
	}
	_ = os.Remove(f.Name()) // unlinked: the file goes with its descriptor
	d.spills = append(d.spills, f)
	w := bufio.NewWriterSize(f, 256<<10)
	var b [8]byte
	for _, h := range d.chunk {
		binary.LittleEndian.PutUint64(b[:], h)
		_, _ = w.Write(b[:])
	}
	if err := w.Flush(); err != nil {
		d.err = err
	}
	d.chunk = d.chunk[:0]
}

// unique reports whether no two hashes are equal, and closes the spills;
// an error reading or writing them is returned.
func (d *distinctIDs) unique() (bool, error) {
	defer func() {
		for _, f := range d.spills {
			f.Close()
		}
	}()
	if len(d.spills) == 0 {
		slices.Sort(d.chunk)
		return !hasAdjacentEqual(d.chunk), nil
	}
	if len(d.chunk) > 0 {
		d.spill()
	}
	if d.err != nil {
		return false, d.err
	}
	d.chunk = nil
	return d.mergeUnique()
}

// mergeUnique merges the sorted spills, false at the first hash read twice.
func (d *distinctIDs) mergeUnique() (bool, error) {
	heads := make([]uint64, len(d.spills))
	readers := make([]*bufio.Reader, len(d.spills))
	live := make([]bool, len(d.spills))
	var b [8]byte
	next := func(k int) error {
		_, err := io.ReadFull(readers[k], b[:])
		if err == io.EOF {
			live[k] = false
			return nil
		}
		heads[k], live[k] = binary.LittleEndian.Uint64(b[:]), err == nil
		return err
	}
	for k, f := range d.spills {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return false, err
		}
		readers[k] = bufio.NewReaderSize(f, 64<<10)
		if err := next(k); err != nil {
			return false, err
		}
	}
	first, last := true, uint64(0)
	for {
		k := -1
		for j := range heads {
			if live[j] && (k < 0 || heads[j] < heads[k]) {
				k = j
			}
		}
		if k < 0 {
			return true, nil
		}
		if !first && heads[k] == last {
			return false, nil
		}
		first, last = false, heads[k]
		if err := next(k); err != nil {
			return false, err
		}
	}
}

// hasAdjacentEqual says whether a sorted slice holds a value twice.
func hasAdjacentEqual(xs []uint64) bool {
	for i := 1; i < len(xs); i++ {
		if xs[i] == xs[i-1] {
			return true
		}
	}
	return false
}
