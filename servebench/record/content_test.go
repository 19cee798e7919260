package record

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/servebench/servebench/internal/strictjson"
)

// TestMessageContentShapes checks that a string content and an array of
// parts both read and write back byte for byte, and that an unknown member
// of a part is refused naming the part.
func TestMessageContentShapes(t *testing.T) {
	for _, in := range []string{
		`{"role":"user","content":"hello"}`,
		`{"role":"user","content":[{"type":"text","text":"what is this?"},{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA","detail":"low"}},{"type":"input_audio","input_audio":{"data":"UklG","format":"wav"}}]}`,
	} {
		var m Message
		if err := json.Unmarshal([]byte(in), &m); err != nil {
			t.Fatal(err)
		}
		out, err := json.Marshal(m)
		if err != nil || string(out) != in {
			t.Fatalf("round trip: %s (%v), want %s", out, err, in)
		}
	}
	var m Message
	err := json.Unmarshal([]byte(`{"role":"user","content":[{"type":"text","txt":"x"}]}`), &m)
	if err == nil || !strings.Contains(err.Error(), `content[0].txt: unknown field`) {
		t.Fatalf("unknown part member: %v", err)
	}
	err = json.Unmarshal([]byte(`{"role":"user","content":7}`), &m)
	if err == nil || !strings.Contains(err.Error(), "content: want a string or an array") {
		t.Fatalf("number content: %v", err)
	}
}

// TestMessageTextAndSetText checks that Text joins the text parts and
// that SetText leaves a plain text message.
func TestMessageTextAndSetText(t *testing.T) {
	m := Message{Role: "user", Parts: []ContentPart{{Type: PartText, Text: "a "}, {Type: PartImageURL, ImageURL: &ImageURL{URL: "http://127.0.0.1/x.png"}}, {Type: PartText, Text: "b"}}}
	if got := m.Text(); got != "a b" {
		t.Fatalf("Text = %q, want %q", got, "a b")
	}
	m.SetText("answer")
	if m.Parts != nil || m.Content != "answer" || m.Text() != "answer" {
		t.Fatalf("after SetText: %+v", m)
	}
}

// TestMediaOfAndModality counts two 256x256 images of 1,000 and 3,000
// bytes and one audio clip: 2 images, 4,000 bytes, 2·65,536 = 131,072
// pixels, modality image+audio; each field survives both decoders.
func TestMediaOfAndModality(t *testing.T) {
	img := func(n int) ContentPart {
		return ContentPart{Type: PartImageURL, ImageURL: &ImageURL{URL: "data:image/png;base64,", Bytes: n, Width: 256, Height: 256}}
	}
	r := Request{Messages: []Message{
		{Role: "user", Parts: []ContentPart{img(1000), {Type: PartText, Text: "x"}}},
		{Role: "user", Parts: []ContentPart{img(3000), {Type: PartInputAudio, InputAudio: &InputAudio{Data: "AA==", Format: "wav"}}}},
	}}
	got := MediaOf(&r)
	if got != (Media{Images: 2, ImageBytes: 4000, ImagePixels: 131072, Audio: 1}) {
		t.Fatalf("MediaOf = %+v", got)
	}
	o := Outcome{ID: "a", Attempt: 1, Status: StatusSuccess, ImageTokens: new(512)}
	o.SetMedia(got)
	if o.Modality() != ModalityImageAudio {
		t.Fatalf("modality %q", o.Modality())
	}
	line, err := json.Marshal(&o)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(line), `"images":2,"image_bytes":4000,"image_pixels":131072,"image_tokens":512,"audio_inputs":1`) {
		t.Fatalf("written as %s", line)
	}
	var fast, strict Outcome
	if !DecodeFast(line, &fast) || fast.Images != 2 || fast.ImageBytes != 4000 || fast.ImagePixels != 131072 || *fast.ImageTokens != 512 || fast.AudioInputs != 1 {
		t.Fatalf("fast decode of %s: %+v", line, fast)
	}
	if err := strictjson.Decode(line, &strict); err != nil || strict.ImageTokens == nil || *strict.ImageTokens != 512 {
		t.Fatalf("strict decode: %v", err)
	}
	text := Outcome{ID: "b", Attempt: 1, Status: StatusSuccess}
	line, _ = json.Marshal(&text)
	if strings.Contains(string(line), "image") || text.Modality() != ModalityText {
		t.Fatalf("a text outcome carries image fields: %s", line)
	}
}
