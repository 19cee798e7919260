package openai

import (
	"bytes"
	"io"
	"os"
	"strings"
)

// spliceMin is the size from which a prepared string (an image's data: URL,
// an audio clip) is spliced into a body rather than copied.
const spliceMin = 64 << 10

// payload is a request body: the bytes the body writer wrote, with large
// prepared strings and spooled image files spliced in at their offsets
// instead of copied. Their bytes are read as the transport writes the
// body, after the connection was obtained, so that a megabyte image costs
// nothing on the path from the scheduled instant to the send.
type payload struct {
	head    []byte
	splices []splice // in offset order
	size    int64
}

// splice is one piece of the body kept out of head: text, or the file at
// path (n bytes), inserted at offset at of head.
type splice struct {
	at   int
	text string
	path string
	n    int64
}

// reader returns a fresh reader of the whole body; Close closes any spooled
// file it opened.
func (p *payload) reader() io.ReadCloser {
	if len(p.splices) == 0 {
		return io.NopCloser(bytes.NewReader(p.head))
	}
	r := &payloadReader{}
	parts := make([]io.Reader, 0, 2*len(p.splices)+1)
	from := 0
	for _, s := range p.splices {
		parts = append(parts, bytes.NewReader(p.head[from:s.at]))
		if s.path != "" {
			f := &lazyFile{path: s.path}
			r.files = append(r.files, f)
			parts = append(parts, f)
		} else {
			parts = append(parts, strings.NewReader(s.text))
		}
		from = s.at
	}
	parts = append(parts, bytes.NewReader(p.head[from:]))
	r.Reader = io.MultiReader(parts...)
	return r
}

// payloadReader reads a spliced body.
type payloadReader struct {
	io.Reader
	files []*lazyFile
}

// Close closes the spooled files it opened.
func (r *payloadReader) Close() error {
	for _, f := range r.files {
		f.close()
	}
	return nil
}

// lazyFile reads a spooled file, opening it on the first read and closing
// it at its end.
type lazyFile struct {
	path string
	f    *os.File
	done bool
}

func (l *lazyFile) Read(p []byte) (int, error) {
	if l.done {
		return 0, io.EOF
	}
	if l.f == nil {
		f, err := os.Open(l.path)
		if err != nil {
			return 0, err
		}
		l.f = f
	}
	n, err := l.f.Read(p)
	if err == io.EOF {
		l.close()
	}
	return n, err
}

func (l *lazyFile) close() {
	if l.f != nil {
		_ = l.f.Close()
		l.f = nil
	}
	l.done = true
}
