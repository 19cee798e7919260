package servebench_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/media"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
)

// imageCapture sends through a real client and keeps the image URLs each
// request carried, by outcome ID.
type imageCapture struct {
	client *openai.Client
	mu     sync.Mutex
	sent   map[string][]string
}

func (c *imageCapture) Do(ctx context.Context, start time.Time, req *record.Request, requestID string, out *record.Outcome) {
	var urls []string
	for _, m := range req.Messages {
		for _, p := range m.Parts {
			if p.ImageURL != nil {
				urls = append(urls, p.ImageURL.URL)
			}
		}
	}
	c.mu.Lock()
	c.sent[out.ID] = urls
	c.mu.Unlock()
	c.client.Do(ctx, start, req, requestID, out)
}

// TestRunDrawsImagesPerRequest cycles 2 rows to 6 requests with a pool of
// 6 noise images (8×8 or 16×16) and one image a request, against the
// simulated engine. The documented draw: the request with entry ID id
// sends pool image rand.New(rand.NewPCG(seed, FNV-1a-64(id))).IntN(6);
// the entry IDs are a, b, a#2, b#2, a#3, b#3, which draw 0, 5, 3, 1, 2
// and 0. Each request carries that
// image (not its row's), its outcome counts its bytes and pixels, the
// cycled uses of a row do not all resend one image, and a second run with
// the same seed sends the same image for every ID.
func TestRunDrawsImagesPerRequest(t *testing.T) {
	const seed = 11
	pool, err := media.BuildPool(media.PoolSpec{Sizes: []media.ImageSize{{Width: 8, Height: 8, Weight: 1}, {Width: 16, Height: 16, Weight: 1}},
		Format: media.FormatPNG, Content: media.ContentNoise, Size: 6, PerRequest: 1, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	for _, id := range []string{"a", "b", "a#2", "b#2", "a#3", "b#3"} {
		h := fnv.New64a()
		h.Write([]byte(id))
		want[id] = rand.New(rand.NewPCG(seed, h.Sum64())).IntN(6)
	}
	// Row a's three uses send images 0, 3 and 2; row b's 5, 1 and 0.
	if got := fmt.Sprint(want); got != "map[a:0 a#2:3 a#3:2 b:5 b#2:1 b#3:0]" {
		t.Fatalf("the documented draw gives %s", got)
	}
	for i := range pool.Images {
		for j := range i {
			if pool.Images[i].URL == pool.Images[j].URL {
				t.Fatalf("pool images %d and %d are the same bytes: the test could not tell them apart", j, i)
			}
		}
	}
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1 })
	run := func() map[string][]string {
		w, err := pool.Attach(workloadOf(t, `{"id":"a","prompt":"look","max_tokens":2}`+"\n"+`{"id":"b","prompt":"see","max_tokens":2}`+"\n"), "")
		if err != nil {
			t.Fatal(err)
		}
		c := clientFor(srv)
		c.Endpoint = record.EndpointChat
		capture := &imageCapture{client: c, sent: map[string][]string{}}
		res, err := servebench.Run(context.Background(), servebench.RunConfig{
			Workload: w, Arrival: constant(t, 50), Count: 6, Client: c, Sender: capture, OutputDir: t.TempDir(),
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range outcomesOf(t, res) {
			img := pool.Images[want[o.ID]]
			if got := capture.sent[o.ID]; len(got) != 1 || got[0] != img.URL {
				t.Fatalf("request %s sent %d images, want pool image %d", o.ID, len(got), want[o.ID])
			}
			if o.Status != record.StatusSuccess || o.Images != 1 || o.ImageBytes != img.Bytes || o.ImagePixels != img.Width*img.Height {
				t.Fatalf("request %s: %s, images %d, %d bytes, %d pixels; want 1 image of %d bytes, %d pixels",
					o.ID, o.Status, o.Images, o.ImageBytes, o.ImagePixels, img.Bytes, img.Width*img.Height)
			}
		}
		return capture.sent
	}
	first, second := run(), run()
	if len(first) != 6 {
		t.Fatalf("%d requests sent, want 6", len(first))
	}
	for id, urls := range first {
		if len(second[id]) != 1 || second[id][0] != urls[0] {
			t.Fatalf("request %s: the rerun sent another image", id)
		}
	}
}
