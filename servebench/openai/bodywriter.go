package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/servebench/servebench/servebench/record"
)

// bodyWriter writes a request body's JSON object member by member, in a
// fixed order, then the row's Extra members in key order. Extra wins: a
// member whose name Extra also has is not written at all, so the object
// never carries a key twice.
type bodyWriter struct {
	buf   *bytes.Buffer
	enc   *json.Encoder
	extra map[string]json.RawMessage
	first bool
	// splices are the large prepared strings and spooled files kept out of
	// buf (see payload); spliced counts their bytes.
	splices []splice
	spliced int64
}

// newBodyWriter starts a body of about size bytes with the row's Extra.
func newBodyWriter(size int, extra map[string]json.RawMessage) *bodyWriter {
	b := &bodyWriter{buf: bytes.NewBuffer(make([]byte, 0, size)), extra: extra, first: true}
	b.enc = json.NewEncoder(b.buf)
	b.enc.SetEscapeHTML(false)
	return b
}

// member writes the member's name and reports whether its value is to be
// written: false when Extra overrides it.
func (b *bodyWriter) member(name string) bool {
	if _, overridden := b.extra[name]; overridden {
		return false
	}
	b.comma()
	b.buf.WriteByte('"')
	b.buf.WriteString(name)
	b.buf.WriteString(`":`)
	return true
}

// comma opens the object or separates two members.
func (b *bodyWriter) comma() {
	if b.first {
		b.buf.WriteByte('{')
		b.first = false
	} else {
		b.buf.WriteByte(',')
	}
}

// value writes v as JSON (without HTML escaping).
func (b *bodyWriter) value(v any) error {
	if err := b.enc.Encode(v); err != nil {
		return err
	}
	b.buf.Truncate(b.buf.Len() - 1) // Encode ends every value with "\n"
	return nil
}

// put writes member name with value v unless Extra overrides it.
func (b *bodyWriter) put(name string, v any) error {
	if !b.member(name) {
		return nil
	}
	return b.value(v)
}

// literal writes member name with the JSON text s unless Extra overrides
// it.
func (b *bodyWriter) literal(name, s string) {
	if b.member(name) {
		b.buf.WriteString(s)
	}
}

// finish writes Extra's members and closes the object.
func (b *bodyWriter) finish() (payload, error) {
	keys := make([]string, 0, len(b.extra))
	for k := range b.extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		raw := b.extra[k]
		if !json.Valid(raw) {
			return payload{}, fmt.Errorf("extra field %q: not valid JSON", k)
		}
		b.comma()
		if err := b.value(k); err != nil {
			return payload{}, err
		}
		b.buf.WriteByte(':')
		b.buf.Write(bytes.TrimSpace(raw))
	}
	if b.first {
		b.buf.WriteByte('{')
	}
	b.buf.WriteByte('}')
	head := b.buf.Bytes()
	return payload{head: head, splices: b.splices, size: int64(len(head)) + b.spliced}, nil
}

// streamRequested says whether the request asks for a stream: the
// Client's (unless NoStream), unless the row's Extra sets "stream".
func streamRequested(c *Client, req *record.Request) (bool, error) {
	stream := !c.NoStream
	if raw, ok := req.Extra["stream"]; ok {
		if err := json.Unmarshal(raw, &stream); err != nil {
			return false, fmt.Errorf("extra field \"stream\": want true or false, got %s", raw)
		}
	}
	return stream, nil
}

// startTextBody opens the body of a request whose input is r's prompt or
// messages: whether it streams, and a writer holding the model.
func startTextBody(c *Client, r *record.Request) (*bodyWriter, bool, error) {
	stream, err := streamRequested(c, r)
	if err != nil {
		return nil, false, err
	}
	b := newBodyWriter(256+len(r.Prompt)+messagesSize(r.Messages), r.Extra)
	if err := b.put("model", c.modelFor(r)); err != nil {
		return nil, false, err
	}
	return b, stream, nil
}
