package openai

import (
	"fmt"
	"os"

	"github.com/servebench/servebench/servebench/record"
)

// messages writes member name with msgs as a chat "messages" array: each
// message's content a JSON string or its array of content parts. A
// checked image URL or audio clip (record.ImageURL.CheckURL,
// record.InputAudio.CheckAudio) goes into the body as it is, and a
// spooled image from its file: no image byte is encoded per send, and one
// of spliceMin bytes or more is spliced in (see payload), not copied.
func (b *bodyWriter) messages(name string, msgs []record.Message) error {
	if !b.member(name) {
		return nil
	}
	b.buf.WriteByte('[')
	for i := range msgs {
		m := &msgs[i]
		if i > 0 {
			b.buf.WriteByte(',')
		}
		b.buf.WriteString(`{"role":`)
		if err := b.value(m.Role); err != nil {
			return err
		}
		b.buf.WriteString(`,"content":`)
		if err := b.content(m, false); err != nil {
			return err
		}
		b.buf.WriteByte('}')
	}
	b.buf.WriteByte(']')
	return nil
}

// content writes a message's content: its text as a JSON string, or its
// parts as an array. responses writes the Responses API's part types
// (input_text, input_image with the URL as a string).
func (b *bodyWriter) content(m *record.Message, responses bool) error {
	if m.Parts == nil {
		return b.value(m.Content)
	}
	b.buf.WriteByte('[')
	for j := range m.Parts {
		if j > 0 {
			b.buf.WriteByte(',')
		}
		if err := b.part(&m.Parts[j], responses); err != nil {
			return err
		}
	}
	b.buf.WriteByte(']')
	return nil
}

// part writes one content part.
func (b *bodyWriter) part(p *record.ContentPart, responses bool) error {
	switch {
	case p.Type == record.PartText && responses:
		b.buf.WriteString(`{"type":"input_text","text":`)
		if err := b.value(p.Text); err != nil {
			return err
		}
	case p.Type == record.PartText:
		b.buf.WriteString(`{"type":"text","text":`)
		if err := b.value(p.Text); err != nil {
			return err
		}
	case p.Type == record.PartImageURL && p.ImageURL != nil:
		return b.image(p.ImageURL, responses)
	case p.Type == record.PartInputAudio && p.InputAudio != nil && !responses:
		b.buf.WriteString(`{"type":"input_audio","input_audio":{"data":`)
		if err := b.checkedString(p.InputAudio.Data, p.InputAudio.Checked()); err != nil {
			return err
		}
		b.buf.WriteString(`,"format":`)
		if err := b.value(p.InputAudio.Format); err != nil {
			return err
		}
		b.buf.WriteByte('}')
	default:
		return fmt.Errorf("a content part of type %q that this endpoint cannot send", p.Type)
	}
	b.buf.WriteByte('}')
	return nil
}

// image writes an image part: {"type":"image_url","image_url":{"url":…}}
// for chat, {"type":"input_image","image_url":…} for Responses.
func (b *bodyWriter) image(u *record.ImageURL, responses bool) error {
	if responses {
		b.buf.WriteString(`{"type":"input_image","image_url":`)
	} else {
		b.buf.WriteString(`{"type":"image_url","image_url":{"url":`)
	}
	var err error
	if u.SpoolPath != "" {
		err = b.spooled(u.SpoolPath)
	} else {
		err = b.checkedString(u.URL, u.Checked())
	}
	if err != nil {
		return err
	}
	if u.Detail != "" {
		b.buf.WriteString(`,"detail":`)
		if err := b.value(u.Detail); err != nil {
			return err
		}
	}
	if !responses {
		b.buf.WriteByte('}')
	}
	b.buf.WriteByte('}')
	return nil
}

// checkedString writes s as a JSON string: as it is when checked (known to
// need no escaping; spliced in from spliceMin bytes), encoded otherwise.
func (b *bodyWriter) checkedString(s string, checked bool) error {
	if !checked {
		return b.value(s)
	}
	b.buf.WriteByte('"')
	if len(s) >= spliceMin {
		b.splices = append(b.splices, splice{at: b.buf.Len(), text: s})
		b.spliced += int64(len(s))
	} else {
		b.buf.WriteString(s)
	}
	b.buf.WriteByte('"')
	return nil
}

// spooled splices a spooled image's URL text in from its file, as a JSON
// string (the file was written as a checked data: URL): the file is read
// as the body is sent.
func (b *bodyWriter) spooled(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("spooled image: %w", err)
	}
	b.buf.WriteByte('"')
	b.splices = append(b.splices, splice{at: b.buf.Len(), path: path, n: st.Size()})
	b.spliced += st.Size()
	b.buf.WriteByte('"')
	return nil
}

// mediaSize estimates the encoded size of a message's parts.
func mediaSize(m *record.Message) int {
	n := 0
	for _, p := range m.Parts {
		n += len(p.Text) + 48
		if u := p.ImageURL; u != nil {
			if len(u.URL) < spliceMin {
				n += len(u.URL)
			}
			n += len(u.Detail)

		}
		if a := p.InputAudio; a != nil {
			if len(a.Data) < spliceMin {
				n += len(a.Data)
			}
			n += len(a.Format)
		}
	}
	return n
}

// responsesInput writes member name with msgs as Responses input items:
// {"type":"message","role":…,"content":…}, the content a string or an
// array of input_text and input_image parts.
func (b *bodyWriter) responsesInput(name string, msgs []record.Message) error {
	if !b.member(name) {
		return nil
	}
	b.buf.WriteByte('[')
	for i := range msgs {
		m := &msgs[i]
		if i > 0 {
			b.buf.WriteByte(',')
		}
		b.buf.WriteString(`{"type":"message","role":`)
		if err := b.value(m.Role); err != nil {
			return err
		}
		b.buf.WriteString(`,"content":`)
		if err := b.content(m, true); err != nil {
			return err
		}
		b.buf.WriteByte('}')
	}
	b.buf.WriteByte(']')
	return nil
}
