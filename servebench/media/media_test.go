package media

import (
	"bytes"
	"image"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// TestParseImageSizes reads the bucket map and names each bad entry.
func TestParseImageSizes(t *testing.T) {
	got, err := ParseImageSizes("256x256=0.5,720x1280=0.5,64x32")
	if err != nil {
		t.Fatal(err)
	}
	want := []ImageSize{{256, 256, 0.5}, {720, 1280, 0.5}, {64, 32, 1}}
	if len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("got %+v", got)
	}
	for in, msg := range map[string]string{
		"256x256=0":          `image size "256x256=0": want a weight greater than 0, got "0"`,
		"256by256":           `image size "256by256": want WIDTHxHEIGHT in pixels`,
		"0x5=1":              `image size "0x5=1": each side must be in [1, 8192] pixels, got 0x5`,
		"8x8=1,8x8=2":        `image size "8x8=2": 8x8 given twice`,
		"8x8=1,":             `image size "": want WIDTHxHEIGHT`,
		"16x16=-1,8x8=abc":   `image size "16x16=-1": want a weight greater than 0`,
		"9000x8=1":           `each side must be in [1, 8192] pixels, got 9000x8`,
		"8x8=1,16x16=+Inf":   `image size "16x16=+Inf": want a weight greater than 0`,
		"8x8=1,16x16=NaN":    `image size "16x16=NaN": want a weight greater than 0`,
		"8x8=1,16x16=1e-400": `image size "16x16=1e-400": want a weight greater than 0`,
	} {
		if _, err := ParseImageSizes(in); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: %v, want %q", in, err, msg)
		}
	}
}

// decodeURL checks a prepared data: URL the way a workload row's is
// checked and returns what it measured.
func decodeURL(t *testing.T, url string) *record.ImageURL {
	t.Helper()
	u := &record.ImageURL{URL: url}
	if err := u.CheckURL(); err != nil {
		t.Fatal(err)
	}
	return u
}

// TestBuildPoolInMemory: a pool of 4 gradient PNGs of 16×8 holds 4 data:
// URLs, each decoding to 16×8 with the encoded size the pool recorded;
// the same seed gives the same bytes, and images differ by index.
func TestBuildPoolInMemory(t *testing.T) {
	spec := PoolSpec{Sizes: []ImageSize{{16, 8, 1}}, Format: FormatPNG, Content: ContentGradient, Size: 4, Seed: 7}
	p, err := BuildPool(spec)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := BuildPool(spec)
	if p.Spooled || len(p.Images) != 4 {
		t.Fatalf("spooled %v, %d images", p.Spooled, len(p.Images))
	}
	for i, img := range p.Images {
		u := decodeURL(t, img.URL)
		if !strings.HasPrefix(img.URL, "data:image/png;base64,") || u.Width != 16 || u.Height != 8 || u.Bytes != img.Bytes {
			t.Fatalf("image %d: %dx%d, %d bytes (pool says %d)", i, u.Width, u.Height, u.Bytes, img.Bytes)
		}
		if img.URL != again.Images[i].URL {
			t.Fatalf("image %d differs between two builds with one seed", i)
		}
	}
	if p.Images[0].URL == p.Images[1].URL {
		t.Fatal("images 0 and 1 are the same")
	}
}

// TestBuildPoolSpoolsWhenTooLarge: a pool reckoned above its memory limit
// (2 noise JPEGs of 32×24: 2·768·4 = 6,144 bytes > 1,000) is written one
// file an image, each holding the data: URL, and sent from its file.
func TestBuildPoolSpoolsWhenTooLarge(t *testing.T) {
	dir := t.TempDir()
	p, err := BuildPool(PoolSpec{Sizes: []ImageSize{{32, 24, 1}}, Format: FormatJPEG, Content: ContentNoise, Size: 2,
		SpoolDir: dir, MemoryLimit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Spooled {
		t.Fatal("not spooled")
	}
	for i, img := range p.Images {
		text, err := os.ReadFile(img.Path)
		if err != nil || img.URL != "" {
			t.Fatalf("image %d: %v, in memory %d bytes", i, err, len(img.URL))
		}
		if u := decodeURL(t, string(text)); u.Width != 32 || u.Height != 24 || u.Bytes != img.Bytes {
			t.Fatalf("image %d: %+v", i, u)
		}
	}
	w := &schedule.Workload{Name: "w", Requests: []record.Request{{ID: "a", Prompt: "look", MaxTokens: 2}}}
	out, err := p.Attach(w, "")
	if err != nil {
		t.Fatal(err)
	}
	u := out.Requests[0].Messages[0].Parts[1].ImageURL
	if u.SpoolPath == "" || !u.Checked() || u.Width != 32 {
		t.Fatalf("attached image %+v", u)
	}
}

// TestAttachAddsImagesToTheLastUserMessage: a prompt row becomes one user
// message [text, image, image]; a chat row keeps its system message and
// its last user message gains the parts; the workload itself is left
// alone; an embeddings row is refused.
func TestAttachAddsImagesToTheLastUserMessage(t *testing.T) {
	p, err := BuildPool(PoolSpec{Sizes: []ImageSize{{8, 8, 1}}, Format: FormatPNG, Content: ContentGradient, Size: 3, PerRequest: 2})
	if err != nil {
		t.Fatal(err)
	}
	w := &schedule.Workload{Name: "w.jsonl", Requests: []record.Request{
		{ID: "a", Prompt: "look", MaxTokens: 2},
		{ID: "b", MaxTokens: 2, Messages: []record.Message{{Role: "system", Content: "be brief"}, {Role: "user", Content: "what"}}},
	}}
	out, err := p.Attach(w, "")
	if err != nil {
		t.Fatal(err)
	}
	a, b := out.Requests[0], out.Requests[1]
	if a.Prompt != "" || len(a.Messages) != 1 || len(a.Messages[0].Parts) != 3 || a.Messages[0].Text() != "look" {
		t.Fatalf("prompt row: %+v", a)
	}
	if m := record.MediaOf(&b); m.Images != 2 || m.ImagePixels != 128 || b.Messages[0].Content != "be brief" || b.Messages[1].Text() != "what" {
		t.Fatalf("chat row: %+v (%+v)", b, m)
	}
	if w.Requests[0].Prompt != "look" || w.Requests[1].Messages[1].Parts != nil {
		t.Fatal("Attach changed its input")
	}
	one := 1
	_, err = p.Attach(&schedule.Workload{Name: "e.jsonl", Requests: []record.Request{{ID: "e", Line: 4, Input: &record.TextInput{Texts: []string{"x"}}, TopN: &one}}}, "")
	if err == nil || !strings.HasPrefix(err.Error(), "e.jsonl:4: input: an embeddings or rerank row cannot carry images") {
		t.Fatalf("embeddings row: %v", err)
	}
}

// TestImageServerServesThePool serves an http-transport pool on loopback:
// the attached URL answers the image's bytes (decoding to its size), and
// an index outside the pool is a 404.
func TestImageServerServesThePool(t *testing.T) {
	p, err := BuildPool(PoolSpec{Sizes: []ImageSize{{20, 10, 1}}, Format: FormatJPEG, Content: ContentGradient, Size: 2, Transport: TransportHTTP})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := p.Serve("")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	out, err := p.Attach(&schedule.Workload{Name: "w", Requests: []record.Request{{ID: "a", Prompt: "x", MaxTokens: 1}}}, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	u := out.Requests[0].Messages[0].Parts[1].ImageURL
	if !strings.HasPrefix(u.URL, "http://127.0.0.1:") || !strings.HasSuffix(u.URL, ".jpg") {
		t.Fatalf("url %s", u.URL)
	}
	resp, err := http.Get(u.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	cfg, format, err := image.DecodeConfig(bytes.NewReader(body))
	if err != nil || format != "jpeg" || cfg.Width != 20 || cfg.Height != 10 || len(body) != u.Bytes {
		t.Fatalf("served %d bytes (%v %s %dx%d), want %d", len(body), err, format, cfg.Width, cfg.Height, u.Bytes)
	}
	resp, err = http.Get(srv.URL + "/images/2.jpg")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("image 2 of 2: status %d", resp.StatusCode)
	}
}

// TestAttachDrawsPerRequest: the attached row carries the draw of its
// first use (entry ID = row ID), and the workload's PerRequest gives
// another entry of the same row its own draw (DrawImages), with the row's
// text unchanged.
func TestAttachDrawsPerRequest(t *testing.T) {
	p, err := BuildPool(PoolSpec{Sizes: []ImageSize{{8, 8, 1}}, Format: FormatPNG, Content: ContentNoise, Size: 6, PerRequest: 2, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Attach(&schedule.Workload{Name: "w", Requests: []record.Request{{ID: "a", Prompt: "look", MaxTokens: 2}}}, "")
	if err != nil {
		t.Fatal(err)
	}
	urls := func(r *record.Request) []string {
		var s []string
		for _, part := range r.Messages[0].Parts[1:] {
			s = append(s, part.ImageURL.URL)
		}
		return s
	}
	poolURLs := func(idx []int) []string {
		var s []string
		for _, i := range idx {
			s = append(s, p.Images[i].URL)
		}
		return s
	}
	if got, want := urls(&out.Requests[0]), poolURLs(DrawImages(11, "a", 6, 2)); !slices.Equal(got, want) {
		t.Fatal("the row does not carry its first use's draw")
	}
	second := out.PerRequest.Request("a#2", 0)
	if got, want := urls(second), poolURLs(DrawImages(11, "a#2", 6, 2)); !slices.Equal(got, want) || second.Messages[0].Text() != "look" {
		t.Fatal("entry a#2 does not carry its own draw")
	}
}
