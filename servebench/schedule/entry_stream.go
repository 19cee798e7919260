package schedule

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"hash"
	"io"
	"os"

	"github.com/servebench/servebench/internal/strictjson"
	"github.com/servebench/servebench/servebench/record"
)

// EntryStream reads schedule.json's entries in order, one at a time, in
// memory that does not grow with their number: a buffer of the file and
// the entry being read. It takes the runner's layout, the entries last
// (as Encoder writes them); anything else, and any entry that does not
// decode, declines (ErrStreamDeclined), and the caller reads the schedule
// another way. Of a shard's schedule it yields the shard's own arrival
// units, as OwnShare keeps them.
type EntryStream struct {
	// Head is the schedule without its entries.
	Head Schedule

	f      *os.File
	r      io.Reader
	sum    hash.Hash
	share  *Shard
	buf    []byte
	pos    int // next unread byte of buf
	eof    bool
	first  bool // no entry read yet
	done   bool
	unit   int // arrival units seen, of the whole schedule
	n      int // entries of the own share yielded
	shaHex string
}

// maxStreamedEntry bounds one entry's bytes.
const maxStreamedEntry = 64 << 20

// OpenEntries opens a schedule for streaming: it reads the schedule's
// fields up to its entries.
func OpenEntries(path string) (*EntryStream, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &record.InputError{File: path, Msg: err.Error()}
	}
	s := &EntryStream{f: f, first: true}
	at, head, ok := readStreamHead(f)
	if ok {
		ok = s.decodeHead(head)
	}
	if ok {
		ok = s.startEntries(at)
	}
	if !ok {
		f.Close()
		return nil, ErrStreamDeclined
	}
	return s, nil
}

// readStreamHead reads the schedule's members before "entries" and the
// offset just past that key.
func readStreamHead(f *os.File) (int64, map[string]json.RawMessage, bool) {
	dec := json.NewDecoder(bufio.NewReaderSize(f, 64<<10))
	if !readDelim(dec, '{') {
		return 0, nil, false
	}
	head := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return 0, nil, false
		}
		if _, dup := head[key]; dup {
			return 0, nil, false
		}
		if key == "entries" {
			head[key] = json.RawMessage("[]")
			return dec.InputOffset(), head, true
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return 0, nil, false
		}
		head[key] = raw
	}
	return 0, nil, false
}

// decodeHead decodes the members read before the entries.
func (s *EntryStream) decodeHead(head map[string]json.RawMessage) bool {
	share, ok := shareOf(head["shard"])
	if !ok {
		return false
	}
	s.share = share
	obj, err := json.Marshal(head)
	return err == nil && strictjson.Decode(obj, &s.Head) == nil && s.Head.Schema == Schema
}

// startEntries reads the file again from its start, hashing it, up to the
// opening of the entries array.
func (s *EntryStream) startEntries(at int64) bool {
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return false
	}
	s.sum = sha256.New()
	s.r = io.TeeReader(s.f, s.sum)
	s.buf = make([]byte, 0, 1<<20)
	for s.pos = 0; int64(len(s.buf)) < at; {
		if !s.fill() {
			return false
		}
	}
	s.pos = int(at)
	return s.byteAfterSpace(':') && s.byteAfterSpace('[')
}

// fill reads more of the file into buf, keeping buf[pos:]; false at the
// end of the file or on an error.
func (s *EntryStream) fill() bool {
	if s.eof {
		return false
	}
	if s.pos > 0 && s.pos == len(s.buf) {
		s.buf, s.pos = s.buf[:0], 0
	} else if s.pos > cap(s.buf)/2 {
		s.buf = s.buf[:copy(s.buf, s.buf[s.pos:])]
		s.pos = 0
	}
	if len(s.buf) == cap(s.buf) {
		if cap(s.buf) >= maxStreamedEntry {
			return false
		}
		s.buf = append(s.buf, make([]byte, cap(s.buf))...)[:len(s.buf)]
	}
	n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
	s.buf = s.buf[:len(s.buf)+n]
	if err != nil {
		s.eof = true
	}
	return n > 0 || !s.eof
}

// peekAfterSpace skips whitespace and returns the next byte, 0 at the end.
func (s *EntryStream) peekAfterSpace() byte {
	for {
		for s.pos < len(s.buf) {
			switch c := s.buf[s.pos]; c {
			case ' ', '\t', '\n', '\r':
				s.pos++
			default:
				return c
			}
		}
		if !s.fill() {
			return 0
		}
	}
}

// byteAfterSpace consumes c after any whitespace.
func (s *EntryStream) byteAfterSpace(c byte) bool {
	if s.peekAfterSpace() != c {
		return false
	}
	s.pos++
	return true
}

// Next decodes the next entry of the own share into e: false at the end
// of the entries, after which SHA256 holds the file's hash. The error is
// ErrStreamDeclined for anything it does not take.
func (s *EntryStream) Next(e *Entry) (bool, error) {
	for !s.done {
		raw, ok := s.nextRaw()
		if !ok {
			return false, ErrStreamDeclined
		}
		if raw == nil {
			return false, s.finish()
		}
		if !decodeEntry(raw, e) || e.ID == "" || record.CheckTime(e.ScheduledMS) != "" {
			return false, ErrStreamDeclined
		}
		if e.DependsOn == "" || s.unit == 0 {
			s.unit++
		}
		if s.share != nil && (s.unit-1)%s.share.Count != s.share.Index {
			continue
		}
		s.n++
		return true, nil
	}
	return false, nil
}

// nextRaw returns the next entry's bytes (valid until the next call), nil
// at the close of the entries; false for anything else.
func (s *EntryStream) nextRaw() ([]byte, bool) {
	c := s.peekAfterSpace()
	switch {
	case c == ']':
		s.pos++
		return nil, true
	case !s.first && c == ',':
		s.pos++
		c = s.peekAfterSpace()
	}
	if c != '{' {
		return nil, false
	}
	s.first = false
	if raw, ok := s.flatObject(); ok {
		return raw, true
	}
	start, i, depth, inString := s.pos, s.pos, 0, false
	for {
		for ; i < len(s.buf); i++ {
			c := s.buf[i]
			switch {
			case inString && c == '\\':
				i++ // the escaped byte; a refill below keeps the count right
			case c == '"':
				inString = !inString
			case inString:
			case c == '{' || c == '[':
				depth++
			case c == '}' || c == ']':
				depth--
				if depth == 0 {
					s.pos = i + 1
					return s.buf[start : i+1], true
				}
			}
		}
		off := i - start
		s.pos = start
		if !s.fill() {
			return nil, false
		}
		start = s.pos
		i = start + off
	}
}

// flatObject takes the common entry at buf[pos:] quickly: an object with
// nothing nested and no escape, ending at the first '}' that is buffered.
// Without escapes a '}' lies outside every string exactly when an even
// number of quotes precedes it; any other shape is left to the byte scan.
func (s *EntryStream) flatObject() ([]byte, bool) {
	rest := s.buf[s.pos:]
	end := bytes.IndexByte(rest, '}')
	if end < 0 {
		return nil, false
	}
	obj := rest[:end+1]
	inner := obj[1:end]
	if bytes.IndexByte(inner, '{') >= 0 || bytes.IndexByte(inner, '[') >= 0 || bytes.IndexByte(inner, '\\') >= 0 ||
		bytes.Count(inner, []byte{'"'})%2 != 0 {
		return nil, false
	}
	s.pos += end + 1
	return obj, true
}

// finish checks that the schedule's object closes after its entries and
// nothing follows, and takes the file's hash.
func (s *EntryStream) finish() error {
	s.done = true
	if !s.byteAfterSpace('}') || s.peekAfterSpace() != 0 {
		return ErrStreamDeclined
	}
	s.shaHex = hex.EncodeToString(s.sum.Sum(nil))
	return nil
}

// Len is the number of entries yielded so far.
func (s *EntryStream) Len() int { return s.n }

// SHA256 is the hex SHA-256 of the file once Next has returned false
// without an error; "" before.
func (s *EntryStream) SHA256() string { return s.shaHex }

// Close closes the file.
func (s *EntryStream) Close() error { return s.f.Close() }
