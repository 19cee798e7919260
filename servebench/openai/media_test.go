package openai_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// pngDataURL encodes a w×h PNG as a data: URL and returns it with the
// PNG's size in bytes.
func pngDataURL(t *testing.T, w, h int) (string, int) {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes()), buf.Len()
}

// mediaWorkload parses one chat row with a text part, a 3×2 PNG and a wav
// clip, as a workload file gives it.
func mediaWorkload(t *testing.T) (*schedule.Workload, string, int) {
	t.Helper()
	url, size := pngDataURL(t, 3, 2)
	row := `{"id":"m1","max_tokens":8,"messages":[{"role":"user","content":[{"type":"text","text":"what is this?"},` +
		`{"type":"image_url","image_url":{"url":"` + url + `"}},{"type":"input_audio","input_audio":{"data":"UklGRg==","format":"wav"}}]}]}`
	w, err := schedule.ParseWorkload("media.jsonl", []byte(row+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	return w, url, size
}

// TestClientSendsContentPartsAsGiven sends a row with a text part, a PNG
// and a wav clip to a real SSE server: the body's messages are the row's
// parts byte for byte, and the outcome counts 1 image of the PNG's size
// and 3·2 = 6 pixels, 1 audio clip, and the 9 image tokens the usage
// reports.
func TestClientSendsContentPartsAsGiven(t *testing.T) {
	w, url, size := mediaWorkload(t)
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Content(ssetest.ChatContent("a cat"))
		w.Event(usageWithDetails(30, 2, map[string]any{"image_tokens": 9}))
		w.Done()
	})
	out := sendRow(t, srv, chatClient(), &w.Requests[0])
	wantStatus(t, out, record.StatusSuccess)
	want := `"messages":[{"role":"user","content":[{"type":"text","text":"what is this?"},{"type":"image_url","image_url":{"url":"` +
		url + `"}},{"type":"input_audio","input_audio":{"data":"UklGRg==","format":"wav"}}]}]`
	wantContains(t, "body", string(srv.LastBody()), want)
	if out.Images != 1 || out.ImageBytes != size || out.ImagePixels != 6 || out.AudioInputs != 1 {
		t.Fatalf("media counts: images %d bytes %d (want %d) pixels %d audio %d", out.Images, out.ImageBytes, size, out.ImagePixels, out.AudioInputs)
	}
	wantInt(t, "image tokens", out.ImageTokens, 9)
}

// TestClientImageTokensAbsentWhenNotReported keeps image_tokens nil, not
// 0, when the usage has no image_tokens.
func TestClientImageTokensAbsentWhenNotReported(t *testing.T) {
	w, _, _ := mediaWorkload(t)
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Content(ssetest.ChatContent("a cat"))
		w.Event(usageWithDetails(30, 2, map[string]any{"cached_tokens": 0}))
		w.Done()
	})
	out := sendRow(t, srv, chatClient(), &w.Requests[0])
	wantStatus(t, out, record.StatusSuccess)
	wantNil(t, "image tokens", out.ImageTokens)
	wantNil(t, "audio tokens", out.AudioTokens)
}

// TestClientSpooledImageAndResponses copies a spooled image's data: URL
// from its file into the body, and writes Responses input_image parts
// with the URL as a string.
func TestClientSpooledImageAndResponses(t *testing.T) {
	url, _ := pngDataURL(t, 4, 4)
	path := filepath.Join(t.TempDir(), "0.url")
	if err := os.WriteFile(path, []byte(url), 0o600); err != nil {
		t.Fatal(err)
	}
	img := &record.ImageURL{SpoolPath: path, Bytes: 70, Width: 4, Height: 4}
	if err := img.CheckURL(); err != nil {
		t.Fatal(err)
	}
	row := &record.Request{ID: "s1", MaxTokens: 4, Messages: []record.Message{{Role: "user", Parts: []record.ContentPart{
		{Type: record.PartText, Text: "hi"}, {Type: record.PartImageURL, ImageURL: img}}}}}
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Content(ssetest.ChatContent("ok"))
		w.Done()
	})
	out := sendRow(t, srv, chatClient(), row)
	wantStatus(t, out, record.StatusSuccess)
	wantContains(t, "chat body", string(srv.LastBody()), `{"type":"image_url","image_url":{"url":"`+url+`"}}`)
	if out.ImagePixels != 16 || out.ImageBytes != 70 {
		t.Fatalf("pixels %d bytes %d, want 16 and 70", out.ImagePixels, out.ImageBytes)
	}

	rsrv := ssetest.New(t, func(w *ssetest.Writer) {})
	c := &openai.Client{Model: "test-model", Endpoint: record.EndpointResponses}
	sendRow(t, rsrv, c, row)
	wantContains(t, "responses body", string(rsrv.LastBody()),
		`"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"},{"type":"input_image","image_url":"`+url+`"}]}]`)
}

// TestCheckWorkloadRefusesMediaWhereNoImagesGo refuses an image row for
// completions and an audio row for Responses, naming the file, the line
// and the field; chat takes it. (For embeddings the workload has no
// inputs at all: TestAWorkloadOfTheOtherKindNamesItsGenerator.)
func TestCheckWorkloadRefusesMediaWhereNoImagesGo(t *testing.T) {
	w, _, _ := mediaWorkload(t)
	if err := openai.CheckWorkload(record.EndpointChat, w); err != nil {
		t.Fatalf("chat: %v", err)
	}
	for e, want := range map[record.Endpoint]string{
		record.EndpointCompletions: "media.jsonl:1: messages: row \"m1\" sends images or audio, and the completions endpoint takes none",
		record.EndpointResponses:   "media.jsonl:1: messages: row \"m1\" sends input_audio, and the responses endpoint takes no audio",
	} {
		err := openai.CheckWorkload(e, w)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Fatalf("%s: %v, want %q", e, err, want)
		}
	}
}

// TestClientSplicesLargeImages sends a data: URL above the splice size
// (a 300×200 noise PNG: about 60 KB, 80 KB as base64) and a spooled one: the server
// receives the whole body, byte for byte, with a Content-Length that
// matches it.
func TestClientSplicesLargeImages(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 300, 200))
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = byte(rng.Uint32())
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	url := "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
	if len(url) < 64<<10 {
		t.Fatalf("the test image is too small to be spliced: %d bytes", len(url))
	}
	path := filepath.Join(t.TempDir(), "1.url")
	if err := os.WriteFile(path, []byte(url), 0o600); err != nil {
		t.Fatal(err)
	}
	row := &record.Request{ID: "big", MaxTokens: 4, Messages: []record.Message{{Role: "user", Parts: []record.ContentPart{
		{Type: record.PartText, Text: "two"},
		{Type: record.PartImageURL, ImageURL: record.PreparedImageURL(url, "", buf.Len(), 300, 200)},
		{Type: record.PartImageURL, ImageURL: record.PreparedImageURL("", path, buf.Len(), 300, 200)}}}}}
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Content(ssetest.ChatContent("ok"))
		w.Done()
	})
	out := sendRow(t, srv, chatClient(), row)
	wantStatus(t, out, record.StatusSuccess)
	body := srv.LastBody()
	part := `{"type":"image_url","image_url":{"url":"` + url + `"}}`
	wantContains(t, "body", string(body), `{"type":"text","text":"two"},`+part+`,`+part)
	if got := srv.LastHeader().Get("Content-Length"); got != strconv.Itoa(len(body)) {
		t.Fatalf("Content-Length %s, body %d bytes", got, len(body))
	}
	if out.ImagePixels != 120000 {
		t.Fatalf("pixels %d, want 2·300·200 = 120000", out.ImagePixels)
	}
}
