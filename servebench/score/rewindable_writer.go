package score

import "io"

// seekTruncater is a writer that can go back and cut what it wrote, as an
// *os.File can.
type seekTruncater interface {
	io.Writer
	io.Seeker
	Truncate(size int64) error
}

// rewindableWriter is a request-entries writer with the offset it started
// at, so that a pass that declines after writing entries can take them
// back.
type rewindableWriter struct {
	w     seekTruncater
	start int64
}

// rewindableAt says whether out can take back what a pass writes (a
// regular file does; a pipe, a terminal or a buffer does not), and from
// where.
func rewindableAt(out io.Writer) (rewindableWriter, bool) {
	w, ok := out.(seekTruncater)
	if !ok {
		return rewindableWriter{}, false
	}
	start, err := w.Seek(0, io.SeekCurrent)
	if err != nil {
		return rewindableWriter{}, false
	}
	return rewindableWriter{w: w, start: start}, true
}

// rewind cuts what was written after the start and goes back to it.
func (r rewindableWriter) rewind() error {
	if err := r.w.Truncate(r.start); err != nil {
		return err
	}
	_, err := r.w.Seek(r.start, io.SeekStart)
	return err
}
