package suites

import (
	"fmt"
	"path/filepath"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/media"
	"github.com/servebench/servebench/servebench/record"
	"go.yaml.in/yaml/v3"
)

// imageFields are the keys of the images block.
var imageFields = []string{"sizes", "format", "content", "pool", "per_request", "transport", "server"}

// images reads the synthetic image pool, `images: {sizes: {WxH: WEIGHT,
// ...}, format: jpeg|png, content: noise|gradient, pool: N, per_request: N,
// transport: data|http, server: ADDR}`: each load point's chat rows carry
// images from a pool built before its run. Each bad value is named by its
// field and line.
func (d *decoder) images(m *mapping, c *Contract) {
	n := m.get("images")
	if n == nil {
		return
	}
	im := d.mapping(n, "images", imageFields...)
	if im == nil || !d.required(im, "sizes") {
		return
	}
	spec := media.PoolSpec{Seed: uint64(c.Arrival.Seed), Size: d.integer(im, "pool", 1), PerRequest: d.integer(im, "per_request", 1)}
	ok := d.imageSizes(im.get("sizes"), &spec)
	parse := []struct {
		key   string
		parse func(string) error
	}{
		{"format", func(s string) (err error) { spec.Format, err = media.ParseImageFormat(s); return }},
		{"content", func(s string) (err error) { spec.Content, err = media.ParseImageContent(s); return }},
		{"transport", func(s string) (err error) { spec.Transport, err = media.ParseTransport(s); return }},
	}
	for _, p := range parse {
		if s := d.str(im, p.key); s != "" {
			if err := p.parse(s); err != nil {
				d.errorf(im.get(p.key), im.field(p.key), "%v", err)
				ok = false
			}
		}
	}
	c.ImageServer = d.str(im, "server")
	if c.ImageServer != "" && spec.Transport != media.TransportHTTP {
		d.errorf(im.get("server"), im.field("server"), "only with transport: http")
		ok = false
	}
	if c.Endpoint != "" && c.Endpoint != record.EndpointChat && c.Endpoint != record.EndpointResponses {
		d.errorf(n, "images", "the %s endpoint takes no images (use endpoint: chat or responses)", c.Endpoint)
		ok = false
	}
	if ok {
		c.Images = &spec
	}
}

// imageSizes reads `sizes: {WxH: WEIGHT, ...}` into spec.
func (d *decoder) imageSizes(n *yaml.Node, spec *media.PoolSpec) bool {
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		d.errorf(n, "images.sizes", "want a mapping of WIDTHxHEIGHT to positive weights, got %s", describe(n))
		return false
	}
	ok := true
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := resolve(n.Content[i])
		field := join("images.sizes", k.Value)
		w, good := d.number(n.Content[i+1], field)
		if !good {
			ok = false
			continue
		}
		sizes, err := media.ParseImageSizes(fmt.Sprintf("%s=%v", k.Value, w))
		if err != nil {
			d.errorf(k, field, "%v", err)
			ok = false
			continue
		}
		spec.Sizes = append(spec.Sizes, sizes...)
	}
	return ok
}

// prepareImages builds the contract's image pool for one run (spooled
// under the run directory's images/ when too large for memory), starts
// the http transport's file server, and gives cfg a workload whose rows
// carry the images. The returned function stops the server.
func (c *Contract) prepareImages(cfg *servebench.RunConfig) (func(), error) {
	if c.Images == nil {
		return func() {}, nil
	}
	spec := *c.Images
	spec.SpoolDir = filepath.Join(cfg.OutputDir, "images")
	pool, err := media.BuildPool(spec)
	if err != nil {
		return nil, fmt.Errorf("contract %s: images: %w", c.Name, err)
	}
	base, stop := "", func() {}
	if spec.Transport == media.TransportHTTP {
		srv, err := pool.Serve(c.ImageServer)
		if err != nil {
			return nil, fmt.Errorf("contract %s: images.server: %w", c.Name, err)
		}
		base, stop = srv.URL, func() { _ = srv.Close() }
	}
	w, err := pool.Attach(cfg.Workload, base)
	if err != nil {
		stop()
		return nil, fmt.Errorf("contract %s: images: %w", c.Name, err)
	}
	cfg.Workload = w
	return stop, nil
}
