package media

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"

	"github.com/servebench/servebench/servebench/record"
)

// Transport says how an image travels to the engine.
type Transport string

// The image transports.
const (
	// TransportData sends each image inline as a data: URL (base64).
	TransportData Transport = "data"
	// TransportHTTP sends an http URL of the pool's file server, from which
	// the engine fetches the image.
	TransportHTTP Transport = "http"
)

// ParseTransport reads "data" or "http".
func ParseTransport(s string) (Transport, error) {
	switch t := Transport(s); t {
	case TransportData, TransportHTTP:
		return t, nil
	}
	return "", fmt.Errorf("unknown image transport %q: want data or http", s)
}

// The pool's defaults.
const (
	// DefaultPoolSize is how many distinct images a pool holds.
	DefaultPoolSize = 100
	// DefaultMemoryLimit is the size above which a pool is spooled to
	// disk: 1 GiB of prepared bytes, reckoned at 4 bytes a pixel.
	DefaultMemoryLimit = 1 << 30
)

// PoolSpec declares a synthetic image pool.
type PoolSpec struct {
	// Sizes is the bucket map each image's size is drawn from.
	Sizes []ImageSize
	// Format and Content say how each image is drawn and encoded.
	Format  ImageFormat
	Content ImageContent
	// Size is the number of distinct images (DefaultPoolSize when 0).
	Size int
	// PerRequest is the number of images a request carries (1 when 0).
	PerRequest int
	// Transport says how images travel (TransportData when "").
	Transport Transport
	// Seed draws the sizes, the pixels and each request's images
	// (DrawImages).
	Seed uint64
	// SpoolDir is where a pool too large for memory is spooled, one file an
	// image; with SpoolDir empty the pool is held in memory.
	SpoolDir string
	// MemoryLimit is the reckoned size (4 bytes a pixel) above which the
	// pool is spooled to SpoolDir (DefaultMemoryLimit when 0; negative:
	// always spool).
	MemoryLimit int64
}

// withDefaults fills the zero fields.
func (s PoolSpec) withDefaults() PoolSpec {
	if s.Size == 0 {
		s.Size = DefaultPoolSize
	}
	if s.PerRequest == 0 {
		s.PerRequest = 1
	}
	if s.Transport == "" {
		s.Transport = TransportData
	}
	if s.Format == "" {
		s.Format = FormatJPEG
	}
	if s.Content == "" {
		s.Content = ContentNoise
	}
	if s.MemoryLimit == 0 {
		s.MemoryLimit = DefaultMemoryLimit
	}
	return s
}

// Validate names the first bad field.
func (s PoolSpec) Validate() error {
	switch {
	case len(s.Sizes) == 0:
		return errors.New("images: at least one size is required")
	case s.Size < 0:
		return fmt.Errorf("image pool: must be at least 1, got %d", s.Size)
	case s.PerRequest < 0:
		return fmt.Errorf("images per request: must be at least 1, got %d", s.PerRequest)
	}
	return nil
}

// Pool is a prepared set of synthetic images.
type Pool struct {
	// Spec is the declaration, with its defaults filled.
	Spec PoolSpec
	// Images are the pool's images, by index.
	Images []PoolImage
	// Spooled is true when the images live in files under Spec.SpoolDir.
	Spooled bool
}

// PoolImage is one prepared image: its encoded bytes (for the file
// server) or its data: URL (for inline sending), in memory or in a file.
type PoolImage struct {
	Width, Height int
	// Bytes is the encoded image's size.
	Bytes int
	// Data is the encoded image (http transport, in memory).
	Data []byte
	// URL is the data: URL (data transport, in memory).
	URL string
	// Path is the spool file: the encoded image (http transport) or the
	// data: URL's text (data transport).
	Path string
}

// reckonedBytes is the pool's size reckoned at 4 bytes a pixel of its
// largest bucket.
func (s PoolSpec) reckonedBytes() int64 {
	largest := 0
	for _, b := range s.Sizes {
		largest = max(largest, b.Width*b.Height)
	}
	return int64(s.Size) * int64(largest) * 4
}

// BuildPool generates the pool's images in parallel (one worker a CPU),
// each drawn from the seed and its index, and prepares each for its
// transport: a data: URL or the encoded bytes, held in memory, or written
// to one file an image under SpoolDir when the pool is reckoned larger
// than MemoryLimit. Nothing is left to encode at send time.
func BuildPool(spec PoolSpec) (*Pool, error) {
	spec = spec.withDefaults()
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	p := &Pool{Spec: spec, Images: make([]PoolImage, spec.Size)}
	if spec.SpoolDir != "" && spec.reckonedBytes() > spec.MemoryLimit {
		if err := os.MkdirAll(spec.SpoolDir, 0o755); err != nil {
			return nil, fmt.Errorf("image spool: %w", err)
		}
		p.Spooled = true
	}
	sizes := p.drawSizes()
	var wg sync.WaitGroup
	errs := make([]error, runtime.GOMAXPROCS(0))
	next := make(chan int)
	for w := range errs {
		wg.Go(func() {
			for i := range next {
				if errs[w] == nil {
					errs[w] = p.prepare(i, sizes[i])
				}
			}
		})
	}
	for i := range p.Images {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return p, nil
}

// drawSizes draws every image's size from the bucket map.
func (p *Pool) drawSizes() []ImageSize {
	rng := rand.New(rand.NewPCG(p.Spec.Seed, 0x51e5))
	total := 0.0
	for _, b := range p.Spec.Sizes {
		total += b.Weight
	}
	out := make([]ImageSize, len(p.Images))
	for i := range out {
		u := rng.Float64() * total
		out[i] = p.Spec.Sizes[len(p.Spec.Sizes)-1]
		for _, b := range p.Spec.Sizes {
			if u < b.Weight {
				out[i] = b
				break
			}
			u -= b.Weight
		}
	}
	return out
}

// prepare generates image i and keeps it as its transport needs it.
func (p *Pool) prepare(i int, size ImageSize) error {
	data, err := synthesize(size.Width, size.Height, p.Spec.Content, p.Spec.Format, p.Spec.Seed, i)
	if err != nil {
		return fmt.Errorf("image %d: %w", i, err)
	}
	img := PoolImage{Width: size.Width, Height: size.Height, Bytes: len(data)}
	var prepared []byte
	if p.Spec.Transport == TransportData {
		prefix := "data:" + p.Spec.Format.MIME() + ";base64,"
		prepared = make([]byte, len(prefix)+base64.StdEncoding.EncodedLen(len(data)))
		copy(prepared, prefix)
		base64.StdEncoding.Encode(prepared[len(prefix):], data)
	} else {
		prepared = data
	}
	switch {
	case p.Spooled:
		img.Path = filepath.Join(p.Spec.SpoolDir, strconv.Itoa(i)+p.fileExt())
		if err := os.WriteFile(img.Path, prepared, 0o644); err != nil {
			return fmt.Errorf("image spool: %w", err)
		}
	case p.Spec.Transport == TransportData:
		img.URL = string(prepared)
	default:
		img.Data = prepared
	}
	p.Images[i] = img
	return nil
}

// fileExt is the spool files' extension: ".url" for data: URLs, the
// format's for encoded images.
func (p *Pool) fileExt() string {
	if p.Spec.Transport == TransportData {
		return ".url"
	}
	if p.Spec.Format == FormatJPEG {
		return ".jpg"
	}
	return ".png"
}

// imageURL is the content part's image for pool image i; base is the file
// server's root URL for the http transport.
func (p *Pool) imageURL(i int, base string) *record.ImageURL {
	img := &p.Images[i]
	if p.Spec.Transport == TransportHTTP {
		u := &record.ImageURL{URL: base + "/images/" + strconv.Itoa(i) + p.fileExt(), Bytes: img.Bytes, Width: img.Width, Height: img.Height}
		_ = u.CheckURL() // an http URL it built itself: parses, no escapes
		return u
	}
	return record.PreparedImageURL(img.URL, img.Path, img.Bytes, img.Width, img.Height)
}
