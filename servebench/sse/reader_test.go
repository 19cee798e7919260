package sse

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// item is a comparable copy of an Event.
type item struct {
	Kind Kind
	Type string
	Data string
	ID   string
}

func (it item) String() string {
	return it.Kind.String() + "{type=" + it.Type + " data=" + it.Data + " id=" + it.ID + "}"
}

// readAll reads every item from r and returns them with the final error.
func readAll(t *testing.T, r *Reader) ([]item, error) {
	t.Helper()
	var out []item
	for range 100000 {
		ev, err := r.Next()
		if err != nil {
			return out, err
		}
		out = append(out, item{ev.Kind, string(ev.Type), string(ev.Data), string(ev.ID)})
	}
	t.Fatal("reader did not stop")
	return nil, nil
}

// splitters wrap a stream in readers that cut it at different places.
var splitters = map[string]func(io.Reader) io.Reader{
	"whole":    func(r io.Reader) io.Reader { return r },
	"one-byte": iotest.OneByteReader,
	"half":     iotest.HalfReader,
	"data-err": iotest.DataErrReader,
}

func TestReaderCases(t *testing.T) {
	ev := func(data string) item { return item{Kind: KindEvent, Data: data} }
	cases := []struct {
		name string
		in   string
		want []item
		err  error
	}{
		{"lf", "data: a\n\ndata: b\n\n", []item{ev("a"), ev("b")}, io.EOF},
		{"crlf", "data: a\r\n\r\ndata: b\r\n\r\n", []item{ev("a"), ev("b")}, io.EOF},
		{"cr", "data: a\r\rdata: b\r\r", []item{ev("a"), ev("b")}, io.EOF},
		{"mixed line ends", "data: a\r\ndata: b\rdata: c\n\r\n", []item{ev("a\nb\nc")}, io.EOF},
		{"multi-line data", "data: one\ndata: two\ndata:three\n\n", []item{ev("one\ntwo\nthree")}, io.EOF},
		{"only one space is stripped", "data:  two spaces\n\n", []item{ev(" two spaces")}, io.EOF},
		{"empty data field dispatches empty data", "data:\n\n", []item{ev("")}, io.EOF},
		{"field without colon", "data\n\n", []item{ev("")}, io.EOF},
		{"two empty data fields", "data\ndata\n\n", []item{ev("\n")}, io.EOF},
		{"no data, no dispatch", "event: ping\n\ndata: x\n\n", []item{ev("x")}, io.EOF},
		{"event type", "event: error\ndata: {\"error\":\"x\"}\n\n",
			[]item{{Kind: KindEvent, Type: "error", Data: `{"error":"x"}`}}, io.EOF},
		{"type resets after dispatch", "event: a\ndata: 1\n\ndata: 2\n\n",
			[]item{{Kind: KindEvent, Type: "a", Data: "1"}, ev("2")}, io.EOF},
		{"id persists", "id: 7\ndata: 1\n\ndata: 2\n\nid\ndata: 3\n\n",
			[]item{{Kind: KindEvent, Data: "1", ID: "7"}, {Kind: KindEvent, Data: "2", ID: "7"}, ev("3")}, io.EOF},
		{"id with NUL ignored", "id: 1\ndata: a\n\nid: 2\x003\ndata: b\n\n",
			[]item{{Kind: KindEvent, Data: "a", ID: "1"}, {Kind: KindEvent, Data: "b", ID: "1"}}, io.EOF},
		{"comments", ": keepalive\n\n:\ndata: a\n: inside\ndata: b\n\n",
			[]item{{Kind: KindComment, Data: " keepalive"}, {Kind: KindComment}, {Kind: KindComment, Data: " inside"}, ev("a\nb")}, io.EOF},
		{"bom stripped once", "\xEF\xBB\xBFdata: a\n\n\xEF\xBB\xBFdata: b\n\n", []item{ev("a")}, io.EOF},
		{"unknown field ignored", "foo: bar\ndata: a\n\n", []item{ev("a")}, io.EOF},
		{"colon in value kept", "data: a:b: c\n\n", []item{ev("a:b: c")}, io.EOF},
		{"unterminated last event discarded", "data: a\n\ndata: b\n", []item{ev("a")}, io.ErrUnexpectedEOF},
		{"unterminated last line", "data: a\n\ndata: b", []item{ev("a")}, io.ErrUnexpectedEOF},
		{"ends after comment", "data: a\n\n: bye\n", []item{ev("a"), {Kind: KindComment, Data: " bye"}}, io.EOF},
		{"empty stream", "", nil, io.EOF},
		{"only bom", "\xEF\xBB\xBF", nil, io.EOF},
		{"bom prefix that is not a bom", "\xEF\xBB", nil, io.ErrUnexpectedEOF},
		{"utf-8 passes through", "data: héllo ✓\n\n", []item{ev("héllo ✓")}, io.EOF},
		{"done sentinel", "data: {}\n\ndata: [DONE]\n\n", []item{ev("{}"), ev("[DONE]")}, io.EOF},
	}
	for _, c := range cases {
		for sname, split := range splitters {
			t.Run(c.name+"/"+sname, func(t *testing.T) {
				r := NewReaderSize(split(strings.NewReader(c.in)), 16)
				got, err := readAll(t, r)
				if !errors.Is(err, c.err) {
					t.Fatalf("final error = %v, want %v", err, c.err)
				}
				if len(got) != len(c.want) {
					t.Fatalf("got %d items %v, want %d %v", len(got), got, len(c.want), c.want)
				}
				for i := range got {
					if got[i] != c.want[i] {
						t.Errorf("item %d = %v, want %v", i, got[i], c.want[i])
					}
				}
			})
		}
	}
}

// chunkReader returns the given chunks one per Read.
type chunkReader struct{ chunks []string }

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.chunks[0])
	c.chunks[0] = c.chunks[0][n:]
	if c.chunks[0] == "" {
		c.chunks = c.chunks[1:]
	}
	return n, nil
}

func TestReaderCRLFSplitAcrossReads(t *testing.T) {
	// The CR of each CRLF ends one read and its LF starts the next: the LF
	// must not be taken for a blank line.
	r := NewReader(&chunkReader{chunks: []string{"data: a\r", "\ndata: b\r", "\n\r", "\n"}})
	got, err := readAll(t, r)
	if err != io.EOF {
		t.Fatalf("err = %v, want io.EOF", err)
	}
	if len(got) != 1 || got[0].Data != "a\nb" {
		t.Fatalf("got %v, want one event with data \"a\\nb\"", got)
	}
}

func TestReaderEventReturnedBeforeMoreInput(t *testing.T) {
	// An event whose blank line has arrived is returned without waiting for
	// more input: the second Read blocks until the test releases it.
	pr, pw := io.Pipe()
	r := NewReader(pr)
	go func() {
		_, _ = pw.Write([]byte("data: first\n\n"))
	}()
	ev, err := r.Next()
	if err != nil || string(ev.Data) != "first" {
		t.Fatalf("Next = %q, %v; want \"first\"", ev.Data, err)
	}
	// A CR-terminated line is complete before its possible LF arrives.
	go func() {
		_, _ = pw.Write([]byte(": ping\r"))
	}()
	ev, err = r.Next()
	if err != nil || ev.Kind != KindComment || string(ev.Data) != " ping" {
		t.Fatalf("Next = %v %q, %v; want comment \" ping\"", ev.Kind, ev.Data, err)
	}
	go func() {
		_, _ = pw.Write([]byte("\ndata: second\r\n\r\n"))
		pw.Close()
	}()
	ev, err = r.Next()
	if err != nil || string(ev.Data) != "second" {
		t.Fatalf("Next = %q, %v; want \"second\"", ev.Data, err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("err = %v, want io.EOF", err)
	}
}

func TestReaderRetry(t *testing.T) {
	r := NewReader(strings.NewReader("retry: 2500\ndata: a\n\nretry: 12x\n\nretry: -1\n\n"))
	if _, ok := r.Retry(); ok {
		t.Fatal("Retry set before any field")
	}
	if _, err := readAll(t, r); err != io.EOF {
		t.Fatalf("err = %v", err)
	}
	d, ok := r.Retry()
	if !ok || d != 2500*time.Millisecond {
		t.Fatalf("Retry = %v, %v; want 2.5s, true (invalid values ignored)", d, ok)
	}
	r = NewReader(strings.NewReader("retry: 99999999999999999999\n\n"))
	if _, err := readAll(t, r); err != io.EOF {
		t.Fatalf("err = %v", err)
	}
	if _, ok := r.Retry(); ok {
		t.Fatal("an overflowing retry value was accepted")
	}
}

func TestReaderMaxEventSize(t *testing.T) {
	long := strings.Repeat("x", 100)
	r := NewReaderSize(strings.NewReader("data: "+long+"\n\n"), 16)
	r.MaxEventSize = 64
	if _, err := r.Next(); !errors.Is(err, ErrEventTooLarge) {
		t.Fatalf("long line: err = %v, want ErrEventTooLarge", err)
	}
	if _, err := r.Next(); !errors.Is(err, ErrEventTooLarge) {
		t.Fatalf("second call: err = %v, want the sticky ErrEventTooLarge", err)
	}
	// Many short data lines that add up past the bound.
	r = NewReader(strings.NewReader(strings.Repeat("data: 0123456789\n", 10) + "\n"))
	r.MaxEventSize = 64
	if _, err := r.Next(); !errors.Is(err, ErrEventTooLarge) {
		t.Fatalf("accumulated data: err = %v, want ErrEventTooLarge", err)
	}
	// Exactly at the bound is accepted.
	r = NewReader(strings.NewReader("data: " + long[:64] + "\n\n"))
	r.MaxEventSize = 64
	if ev, err := r.Next(); err != nil || len(ev.Data) != 64 {
		t.Fatalf("data of exactly 64 bytes: %d bytes, %v", len(ev.Data), err)
	}
}

func TestReaderLongLineGrowsBuffer(t *testing.T) {
	long := strings.Repeat("y", 50000)
	r := NewReaderSize(iotest.HalfReader(strings.NewReader("data: "+long+"\n\n")), 16)
	ev, err := r.Next()
	if err != nil || string(ev.Data) != long {
		t.Fatalf("got %d bytes, %v; want %d", len(ev.Data), err, len(long))
	}
}

func TestReaderReadError(t *testing.T) {
	boom := errors.New("connection reset")
	src := io.MultiReader(strings.NewReader("data: a\n\ndata: b"), iotest.ErrReader(boom))
	r := NewReader(src)
	got, err := readAll(t, r)
	if err != boom {
		t.Fatalf("err = %v, want the source's error", err)
	}
	if len(got) != 1 || got[0].Data != "a" {
		t.Fatalf("got %v, want the one complete event", got)
	}
}

// zeroReader returns no bytes and no error forever.
type zeroReader struct{}

func (zeroReader) Read([]byte) (int, error) { return 0, nil }

func TestReaderNoProgress(t *testing.T) {
	if _, err := NewReader(zeroReader{}).Next(); err != io.ErrNoProgress {
		t.Fatalf("err = %v, want io.ErrNoProgress", err)
	}
}

func TestReaderReset(t *testing.T) {
	r := NewReader(strings.NewReader("id: 1\nretry: 10\ndata: a\n\ndata: partial"))
	if _, err := readAll(t, r); err != io.ErrUnexpectedEOF {
		t.Fatalf("err = %v", err)
	}
	r.Reset(strings.NewReader("data: b\n\n"))
	got, err := readAll(t, r)
	if err != io.EOF || len(got) != 1 || got[0] != (item{Kind: KindEvent, Data: "b"}) {
		t.Fatalf("after Reset got %v, %v; want one event b with no id", got, err)
	}
	if _, ok := r.Retry(); ok {
		t.Fatal("Reset kept the retry value")
	}
}

func TestReaderDataValidUntilNext(t *testing.T) {
	// Documented contract: Data is overwritten by later calls, so callers
	// that keep it must copy. This pins the reuse (no allocation per event).
	r := NewReader(strings.NewReader("data: aaaa\n\ndata: bbbb\n\n"))
	first, _ := r.Next()
	kept := bytes.Clone(first.Data)
	second, _ := r.Next()
	if string(kept) != "aaaa" || string(second.Data) != "bbbb" {
		t.Fatalf("kept %q, second %q", kept, second.Data)
	}
	if &first.Data[0] != &second.Data[0] {
		t.Fatal("the data buffer was not reused")
	}
}

func TestReaderSteadyStateDoesNotAllocate(t *testing.T) {
	stream := []byte(strings.Repeat("data: {\"choices\":[{\"index\":0,\"text\":\" tok\"}]}\n\n", 64) + "data: [DONE]\n\n")
	src := bytes.NewReader(stream)
	r := NewReader(src)
	allocs := testing.AllocsPerRun(50, func() {
		src.Reset(stream)
		r.Reset(src)
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
	})
	if allocs != 0 {
		t.Fatalf("%.1f allocations per stream of 65 events, want 0", allocs)
	}
}
