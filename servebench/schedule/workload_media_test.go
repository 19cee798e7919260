package schedule

import (
	"strings"
	"testing"
)

// TestWorkloadRefusesBadImageParts refuses, before any load, each bad
// image or audio part with the file, the line and the field.
func TestWorkloadRefusesBadImageParts(t *testing.T) {
	row := func(part string) string {
		return `{"max_tokens":4,"messages":[{"role":"user","content":[{"type":"text","text":"x"},` + part + `]}]}`
	}
	cases := map[string]string{
		// "iVBORw0K" is the PNG signature's start; the header ends too soon.
		row(`{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0K"}}`): "w.jsonl:2: messages[0].content[1].image_url.url: the png image cannot be read",
		row(`{"type":"image_url","image_url":{"url":"data:image/webp;base64,AAAA"}}`):    `w.jsonl:2: messages[0].content[1].image_url.url: unknown image format "image/webp"`,
		row(`{"type":"image_url","image_url":{"url":"data:image/png;base64,A*AA"}}`):     "w.jsonl:2: messages[0].content[1].image_url.url: byte 1 of the base64 data is '*', not base64",
		row(`{"type":"image_url","image_url":{"url":"file:///a.jpg"}}`):                  "w.jsonl:2: messages[0].content[1].image_url.url: want a data:image/...;base64, URL or an http(s) URL",
		row(`{"type":"image_url"}`): "w.jsonl:2: messages[0].content[1].image_url: an image_url part needs image_url",
		row(`{"type":"video_url"}`): `w.jsonl:2: messages[0].content[1].type: unknown content part type "video_url"`,
		row(`{"type":"input_audio","input_audio":{"data":"AAAA","format":"ogg"}}`): `w.jsonl:2: messages[0].content[1].input_audio.format: want wav or mp3, got "ogg"`,
		row(`{"type":"text","text":"a","image_url":{"url":"x"}}`):                  "w.jsonl:2: messages[0].content[1].type: a text part carries only text",
	}
	for line, want := range cases {
		_, err := ParseWorkload("w.jsonl", []byte(`{"prompt":"p","max_tokens":1}`+"\n"+line+"\n"))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s:\n got %v\nwant %s", line, err, want)
		}
	}
	ok := row(`{"type":"image_url","image_url":{"url":"http://127.0.0.1:9/a.jpg","detail":"low"}}`)
	w, err := ParseWorkload("w.jsonl", []byte(ok+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if u := w.Requests[0].Messages[0].Parts[1].ImageURL; !u.Checked() || u.Bytes != 0 || u.Width != 0 {
		t.Fatalf("an http URL: checked %v, size %d, width %d (unknown: 0)", u.Checked(), u.Bytes, u.Width)
	}
}
