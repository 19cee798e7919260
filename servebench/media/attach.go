package media

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// Attach returns a copy of w whose text-generation rows carry
// Spec.PerRequest of the pool's images, and whose every scheduled request
// draws its own: the run sends, for the entry with ID id, its row with
// the images DrawImages(Spec.Seed, id, …) names (a row cycled by a count
// above the rows sends new images each time, and a rerun of the same
// schedule sends the same ones). Each row itself carries the draw of its
// first use (the entry ID of a row's first use is the row's ID), which is
// what checks, preflight and warmup see. A request's last user message (a
// prompt-only row's prompt, which becomes one user message) turns into a
// text part followed by the image parts. The images are prepared before
// the run and shared, not copied: a request only points at them. base is
// the file server's root URL (ImageServer.URL) for the http transport and
// ignored for data. Rows of the embeddings and rerank APIs are refused:
// those endpoints take no images.
func (p *Pool) Attach(w *schedule.Workload, base string) (*schedule.Workload, error) {
	if p.Spec.Transport == TransportHTTP && base == "" {
		return nil, fmt.Errorf("images: the http transport needs the image server's URL")
	}
	d := &entryImages{seed: p.Spec.Seed, perRequest: p.Spec.PerRequest, rows: w.Requests,
		images: make([]*record.ImageURL, len(p.Images))}
	for i := range d.images {
		d.images[i] = p.imageURL(i, base)
	}
	out := &schedule.Workload{Name: w.Name, SHA256: w.SHA256, Requests: make([]record.Request, len(w.Requests)), PerRequest: d}
	for i := range w.Requests {
		r := &w.Requests[i]
		if f := record.PoolingField(r); f != "" {
			return nil, fmt.Errorf("%s:%d: %s: an embeddings or rerank row cannot carry images", w.Name, r.Line, f)
		}
		out.Requests[i] = *d.Request(r.ID, i)
	}
	return out, nil
}

// DrawImages returns the pool indices of the images the request with
// entry ID id sends, for a pool of size images and perRequest images a
// request: the first perRequest values of rand.IntN(size), in order, from
// a math/rand/v2 PCG source seeded with (seed, the 64-bit FNV-1a hash of
// id). The draw depends on the seed and the ID only, never on the order
// in which requests are sent, so it is the same in every rerun and every
// shard of the schedule.
func DrawImages(seed uint64, id string, size, perRequest int) []int {
	h := fnv.New64a()
	h.Write([]byte(id))
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	out := make([]int, perRequest)
	for k := range out {
		out[k] = rng.IntN(size)
	}
	return out
}

// entryImages draws each scheduled request's images from a prepared pool
// (schedule.EntryRequests).
type entryImages struct {
	seed       uint64
	perRequest int
	rows       []record.Request // the rows without images
	images     []*record.ImageURL
}

// Request returns row row with the images of entry id added. It builds
// parts that point at prepared images and encodes nothing.
func (d *entryImages) Request(id string, row int) *record.Request {
	parts := make([]record.ContentPart, d.perRequest)
	for k, i := range DrawImages(d.seed, id, len(d.images), d.perRequest) {
		parts[k] = record.ContentPart{Type: record.PartImageURL, ImageURL: d.images[i]}
	}
	r := withImages(d.rows[row], parts)
	return &r
}

// withImages returns r with the image parts added to its last user
// message, after that message's text.
func withImages(r record.Request, images []record.ContentPart) record.Request {
	msgs := append([]record.Message(nil), r.Messages...)
	if len(msgs) == 0 {
		msgs = []record.Message{{Role: "user", Content: r.Prompt}}
		r.Prompt = ""
	}
	last := len(msgs) - 1
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			last = i
			break
		}
	}
	m := &msgs[last]
	parts := m.Parts
	if parts == nil {
		parts = []record.ContentPart{{Type: record.PartText, Text: m.Content}}
	}
	m.Parts = append(append([]record.ContentPart(nil), parts...), images...)
	m.Content = ""
	r.Messages = msgs
	return r
}
