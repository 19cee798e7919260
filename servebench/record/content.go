package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// The content part types a chat message may carry, as OpenAI names them.
const (
	// PartText is {"type":"text","text":"…"}.
	PartText = "text"
	// PartImageURL is {"type":"image_url","image_url":{"url":"…"}}: a data:
	// URL (base64) or an http(s) URL.
	PartImageURL = "image_url"
	// PartInputAudio is {"type":"input_audio","input_audio":{"data":"…",
	// "format":"wav"}}: base64 audio, sent as given.
	PartInputAudio = "input_audio"
)

// ContentPart is one element of a chat message's content array.
type ContentPart struct {
	// Type is PartText, PartImageURL or PartInputAudio.
	Type string `json:"type"`
	// Text is a text part's text.
	Text string `json:"text,omitempty"`
	// ImageURL is an image part's image.
	ImageURL *ImageURL `json:"image_url,omitempty"`
	// InputAudio is an audio part's audio.
	InputAudio *InputAudio `json:"input_audio,omitempty"`
}

// ImageURL is an image part's image. Its measured facts (Bytes, Width,
// Height) are filled before the run, by the workload checks or by whatever
// prepared the image, and never travel in JSON.
type ImageURL struct {
	// URL is a data: URL (data:image/png;base64,…) or an http(s) URL.
	URL string `json:"url"`
	// Detail is OpenAI's detail hint ("low", "high", "auto"), sent as
	// given when set.
	Detail string `json:"detail,omitempty"`

	// SpoolPath, when set, names a file that holds the URL's exact text
	// (prepared before the run); the client copies the file into the
	// request body at send time and URL is empty.
	SpoolPath string `json:"-"`
	// Bytes is the image's encoded size: the base64-decoded size of a
	// data: URL, the file's size for a served image; 0 when unknown (an
	// http URL that servebench does not serve).
	Bytes int `json:"-"`
	// Width and Height are the image's pixels; 0 when unknown.
	Width, Height int `json:"-"`

	checked bool // CheckURL accepted the URL
}

// InputAudio is an audio part's audio, sent as given.
type InputAudio struct {
	// Data is the base64 audio.
	Data string `json:"data"`
	// Format is "wav" or "mp3".
	Format string `json:"format"`

	checked bool // CheckAudio accepted the clip
}

// Message is one chat message. Its content is either the text Content (a
// JSON string) or, when Parts is not nil, an array of content parts; a
// message with Parts leaves Content empty.
type Message struct {
	// Role is "system", "user", "assistant", …
	Role string
	// Content is the message's text when it has no parts.
	Content string
	// Parts are the message's content parts, in order; nil for a plain
	// text message.
	Parts []ContentPart
}

// Text returns the message's text: Content, or its text parts joined.
func (m *Message) Text() string {
	if m.Parts == nil {
		return m.Content
	}
	var sb strings.Builder
	for _, p := range m.Parts {
		if p.Type == PartText {
			sb.WriteString(p.Text)
		}
	}
	return sb.String()
}

// SetText makes the message a plain text message holding s (its parts, if
// any, are dropped). It is the one place that sets a message's text.
func (m *Message) SetText(s string) {
	m.Content, m.Parts = s, nil
}

// messageText and messageParts are Message's two JSON shapes.
type (
	messageText struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	messageParts struct {
		Role    string        `json:"role"`
		Content []ContentPart `json:"content"`
	}
	messageRaw struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
)

// MarshalJSON writes {"role":…,"content":…} with content a string or an
// array of parts.
func (m Message) MarshalJSON() ([]byte, error) {
	if m.Parts == nil {
		return json.Marshal(messageText{Role: m.Role, Content: m.Content})
	}
	return json.Marshal(messageParts{Role: m.Role, Content: m.Parts})
}

// UnmarshalJSON reads a message whose content is a string or an array of
// content parts; unknown members of the message or of a part are refused.
func (m *Message) UnmarshalJSON(b []byte) error {
	var raw messageRaw
	if err := strictUnmarshal(b, &raw); err != nil {
		return fieldError("messages: " + DescribeJSONError(err).Error())
	}
	*m = Message{Role: raw.Role}
	c := bytes.TrimSpace(raw.Content)
	switch {
	case len(c) == 0 || string(c) == "null":
		return nil
	case c[0] == '"':
		return json.Unmarshal(c, &m.Content)
	case c[0] != '[':
		return fieldError("messages: content: want a string or an array of content parts")
	}
	var parts []json.RawMessage
	if err := json.Unmarshal(c, &parts); err != nil {
		return fieldError("messages: content: want a string or an array of content parts")
	}
	m.Parts = make([]ContentPart, len(parts))
	for i, p := range parts {
		if err := strictUnmarshal(p, &m.Parts[i]); err != nil {
			return fieldError(fmt.Sprintf("messages: content[%d].%s", i, DescribeJSONError(err)))
		}
	}
	return nil
}

// strictUnmarshal decodes one JSON value into v, refusing unknown fields.
func strictUnmarshal(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
