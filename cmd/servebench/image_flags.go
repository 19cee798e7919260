package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/media"
	"github.com/servebench/servebench/servebench/record"
)

// imageFlags declare a synthetic image pool whose images the workload's
// rows carry.
type imageFlags struct {
	sizes, format, content, transport, server string
	perRequest, pool                          int

	spec   *media.PoolSpec // parsed by apply; nil without --images
	served *media.ImageServer
}

func (f *imageFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.sizes, "images", "",
		`synthetic images WxH=WEIGHT,... (e.g. 256x256=0.5,720x1280=0.5): each request carries its own images drawn from a seeded pool of these sizes, prepared before the run`)
	fs.StringVar(&f.format, "image-format", "jpeg", "synthetic image encoding: jpeg or png")
	fs.StringVar(&f.content, "image-content", "noise", "synthetic image content: noise (worst case for compression) or gradient (compresses)")
	fs.IntVar(&f.perRequest, "images-per-request", 1, "images each request carries")
	fs.IntVar(&f.pool, "image-pool", media.DefaultPoolSize, "distinct images generated before the run (a pool too large for memory is spooled to --output/images)")
	fs.StringVar(&f.transport, "image-transport", "data",
		"how images travel: data (inline data: URLs) or http (URLs of a file server servebench starts)")
	fs.StringVar(&f.server, "image-server", "",
		"address the http transport's file server listens on and names in its URLs (default 127.0.0.1 on a free port; give one an in-cluster engine reaches)")
}

// apply parses the flags into the pool's declaration, each bad value named
// by its flag; the pool itself is built by prepare, before any load.
func (f *imageFlags) apply(s *servebench.Settings) error {
	if f.sizes == "" {
		return nil
	}
	sizes, err := media.ParseImageSizes(f.sizes)
	if err != nil {
		return fmt.Errorf("--images: %w", err)
	}
	spec := media.PoolSpec{Sizes: sizes, Size: f.pool, PerRequest: f.perRequest, Seed: uint64(s.Arrival.Seed)}
	if spec.Format, err = media.ParseImageFormat(f.format); err != nil {
		return fmt.Errorf("--image-format: %w", err)
	}
	if spec.Content, err = media.ParseImageContent(f.content); err != nil {
		return fmt.Errorf("--image-content: %w", err)
	}
	if spec.Transport, err = media.ParseTransport(f.transport); err != nil {
		return fmt.Errorf("--image-transport: %w", err)
	}
	switch {
	case f.perRequest < 1:
		return fmt.Errorf("--images-per-request: must be at least 1, got %d", f.perRequest)
	case f.pool < 1:
		return fmt.Errorf("--image-pool: must be at least 1, got %d", f.pool)
	case f.server != "" && spec.Transport != media.TransportHTTP:
		return fmt.Errorf("--image-server: only with --image-transport http")
	}
	if e := s.Client.Endpoint; e != record.EndpointChat && e != record.EndpointResponses {
		return fmt.Errorf("--images: the %s endpoint takes no images (use --endpoint chat or responses)", e)
	}
	f.spec = &spec
	return nil
}

// prepare builds the pool (spooled under outputDir/images when too large
// for memory), starts the file server for the http transport, and gives
// the run a workload whose rows carry the images.
func (f *imageFlags) prepare(cfg *servebench.RunConfig, outputDir string, stderr io.Writer) error {
	if f.spec == nil {
		return nil
	}
	spec := *f.spec
	if outputDir != "" {
		spec.SpoolDir = filepath.Join(outputDir, "images")
	}
	start := time.Now()
	pool, err := media.BuildPool(spec)
	if err != nil {
		return fmt.Errorf("--images: %w", err)
	}
	where := "in memory"
	if pool.Spooled {
		where = "spooled to " + spec.SpoolDir
	}
	fmt.Fprintf(stderr, "images: %d prepared in %v, %s\n", len(pool.Images), time.Since(start).Round(time.Millisecond), where)
	base := ""
	if spec.Transport == media.TransportHTTP {
		if f.served, err = pool.Serve(f.server); err != nil {
			return fmt.Errorf("--image-server: %w", err)
		}
		base = f.served.URL
		fmt.Fprintf(stderr, "images: served at %s\n", base)
	}
	w, err := pool.Attach(cfg.Workload, base)
	if err != nil {
		return fmt.Errorf("--images: %w", err)
	}
	cfg.Workload = w
	return nil
}

// close stops the file server, if one was started.
func (f *imageFlags) close() {
	if f.served != nil {
		_ = f.served.Close()
	}
}
