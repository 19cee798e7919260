package media

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
)

// ImageFormat is the encoding of synthetic images.
type ImageFormat string

// The synthetic image formats.
const (
	FormatJPEG ImageFormat = "jpeg"
	FormatPNG  ImageFormat = "png"
)

// MIME is the format's media type.
func (f ImageFormat) MIME() string { return "image/" + string(f) }

// ParseImageFormat reads "jpeg" or "png".
func ParseImageFormat(s string) (ImageFormat, error) {
	switch f := ImageFormat(s); f {
	case FormatJPEG, FormatPNG:
		return f, nil
	}
	return "", fmt.Errorf("unknown image format %q: want jpeg or png", s)
}

// ImageContent is what a synthetic image shows, which decides how well it
// compresses.
type ImageContent string

// The synthetic image contents.
const (
	// ContentNoise is uniform random pixels: the worst case for
	// compression, the largest bodies.
	ContentNoise ImageContent = "noise"
	// ContentGradient is smooth colour ramps: it compresses well.
	ContentGradient ImageContent = "gradient"
)

// ParseImageContent reads "noise" or "gradient".
func ParseImageContent(s string) (ImageContent, error) {
	switch c := ImageContent(s); c {
	case ContentNoise, ContentGradient:
		return c, nil
	}
	return "", fmt.Errorf("unknown image content %q: want noise or gradient", s)
}

// jpegQuality is the quality synthetic JPEGs are encoded at.
const jpegQuality = 90

// synthesize draws image i of the pool (w×h, seeded by seed and i) and
// encodes it.
func synthesize(w, h int, content ImageContent, format ImageFormat, seed uint64, i int) ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	switch content {
	case ContentNoise:
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		for j := 0; j < len(img.Pix); j += 8 {
			v := rng.Uint64()
			for k := 0; k < 8 && j+k < len(img.Pix); k++ {
				img.Pix[j+k] = byte(v >> (8 * k))
			}
		}
		for j := 3; j < len(img.Pix); j += 4 {
			img.Pix[j] = 0xff
		}
	default:
		shift := uint8(i * 37)
		for y := range h {
			for x := range w {
				img.SetRGBA(x, y, color.RGBA{R: uint8(x * 255 / max(1, w-1)), G: uint8(y * 255 / max(1, h-1)), B: shift, A: 0xff})
			}
		}
	}
	var buf bytes.Buffer
	var err error
	if format == FormatPNG {
		err = png.Encode(&buf, img)
	} else {
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: jpegQuality})
	}
	return buf.Bytes(), err
}
