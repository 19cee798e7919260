package sse

import (
	"io"
	"strconv"
	"strings"
	"testing"
	"time"
)

// reference is a deliberately simple second reading of the standard's
// parsing rules, applied to the whole stream at once: strip one BOM,
// normalize CRLF and then CR to LF, split into lines, drop the unterminated
// tail, and process the lines in order.
type reference struct {
	items      []item
	unexpected bool // the stream ended inside a line or an unclosed event
	lastID     string
	retry      time.Duration
	hasRetry   bool
}

func parseReference(in []byte) reference {
	var ref reference
	s := strings.TrimPrefix(string(in), "\xEF\xBB\xBF")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	lines := strings.Split(s, "\n")
	tail := lines[len(lines)-1]
	lines = lines[:len(lines)-1]
	var data []string
	typ, pending := "", false
	for _, line := range lines {
		switch {
		case line == "":
			pending = false
			if len(data) > 0 {
				ref.items = append(ref.items, item{Kind: KindEvent, Type: typ, Data: strings.Join(data, "\n"), ID: ref.lastID})
			}
			data, typ = nil, ""
		case line[0] == ':':
			ref.items = append(ref.items, item{Kind: KindComment, Data: line[1:]})
		default:
			pending = true
			name, value, found := strings.Cut(line, ":")
			if found {
				value = strings.TrimPrefix(value, " ")
			}
			switch name {
			case "data":
				data = append(data, value)
			case "event":
				typ = value
			case "id":
				if !strings.ContainsRune(value, 0) {
					ref.lastID = value
				}
			case "retry":
				if value != "" && strings.Trim(value, "0123456789") == "" {
					if ms, err := strconv.ParseInt(value, 10, 64); err == nil && ms <= int64(1<<63-1)/int64(time.Millisecond) {
						ref.retry, ref.hasRetry = time.Duration(ms)*time.Millisecond, true
					}
				}
			}
		}
	}
	ref.unexpected = tail != "" || pending
	return ref
}

// patternReader returns the stream in reads whose sizes cycle through
// pattern (each size 1..32).
type patternReader struct {
	data    []byte
	pattern []byte
	i       int
}

func (p *patternReader) Read(b []byte) (int, error) {
	if len(p.data) == 0 {
		return 0, io.EOF
	}
	n := 1
	if len(p.pattern) > 0 {
		n = 1 + int(p.pattern[p.i%len(p.pattern)]%32)
		p.i++
	}
	n = min(n, len(b), len(p.data))
	copy(b, p.data[:n])
	p.data = p.data[n:]
	return n, nil
}

func FuzzReader(f *testing.F) {
	seeds := []string{
		"data: a\n\n",
		"data: a\r\n\r\ndata: b\r\r",
		"\xEF\xBB\xBFdata: x\ndata: y\n\n",
		": keepalive\n\nevent: error\ndata: {\"error\":{\"message\":\"boom\"}}\n\n",
		"id: 1\nretry: 3000\ndata\n\nid: a\x00b\ndata: z\n\n",
		"data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}\n\ndata: [DONE]\n\n",
		"data: unterminated",
		"\r\n\r\n\n\r",
		"data:  spaced\r\n:\r\nfield\r\n\r\n",
	}
	for i, s := range seeds {
		f.Add([]byte(s), []byte{byte(i), 0, 7, 31})
	}
	f.Fuzz(func(t *testing.T, stream, pattern []byte) {
		want := parseReference(stream)
		r := NewReaderSize(&patternReader{data: stream, pattern: pattern}, 16)
		var got []item
		var err error
		for len(got) <= len(stream)+1 {
			var ev Event
			ev, err = r.Next()
			if err != nil {
				break
			}
			got = append(got, item{ev.Kind, string(ev.Type), string(ev.Data), string(ev.ID)})
		}
		wantErr := io.EOF
		if want.unexpected {
			wantErr = io.ErrUnexpectedEOF
		}
		if err != wantErr {
			t.Fatalf("final error %v, reference %v (stream %q)", err, wantErr, stream)
		}
		if len(got) != len(want.items) {
			t.Fatalf("%d items %v, reference %d %v (stream %q)", len(got), got, len(want.items), want.items, stream)
		}
		for i := range got {
			if got[i] != want.items[i] {
				t.Fatalf("item %d = %v, reference %v (stream %q)", i, got[i], want.items[i], stream)
			}
		}
		if string(r.LastEventID()) != want.lastID {
			t.Fatalf("last event ID %q, reference %q", r.LastEventID(), want.lastID)
		}
		if d, ok := r.Retry(); d != want.retry || ok != want.hasRetry {
			t.Fatalf("retry %v %v, reference %v %v", d, ok, want.retry, want.hasRetry)
		}
	})
}
