package media

import (
	"fmt"
	"math/rand/v2"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// Attach returns a copy of w whose text-generation rows each carry
// Spec.PerRequest of the pool's images, drawn by index from the pool's
// seed in row order: the row's last user message (a prompt-only row's
// prompt, which becomes one user message) turns into a text part followed
// by the image parts. The images are shared, not copied; base is the file
// server's root URL (ImageServer.URL) for the http transport and ignored
// for data. Rows of the embeddings and rerank APIs are refused: those
// endpoints take no images.
func (p *Pool) Attach(w *schedule.Workload, base string) (*schedule.Workload, error) {
	if p.Spec.Transport == TransportHTTP && base == "" {
		return nil, fmt.Errorf("images: the http transport needs the image server's URL")
	}
	images := make([]*record.ImageURL, len(p.Images))
	for i := range images {
		images[i] = p.imageURL(i, base)
	}
	rng := rand.New(rand.NewPCG(p.Spec.Seed, 0xa77ac4))
	out := &schedule.Workload{Name: w.Name, SHA256: w.SHA256, Requests: make([]record.Request, len(w.Requests))}
	for i, r := range w.Requests {
		if f := record.PoolingField(&r); f != "" {
			return nil, fmt.Errorf("%s:%d: %s: an embeddings or rerank row cannot carry images", w.Name, r.Line, f)
		}
		parts := make([]record.ContentPart, 0, 1+p.Spec.PerRequest)
		for range p.Spec.PerRequest {
			parts = append(parts, record.ContentPart{Type: record.PartImageURL, ImageURL: images[rng.IntN(len(images))]})
		}
		out.Requests[i] = withImages(r, parts)
	}
	return out, nil
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
