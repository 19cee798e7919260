package media

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ImageSize is one bucket of the size map: images of Width×Height pixels,
// drawn with probability Weight over the weights' sum.
type ImageSize struct {
	Width, Height int
	Weight        float64
}

// maxImageSide bounds each side of a synthetic image.
const maxImageSide = 8192

// ParseImageSizes parses "WxH=WEIGHT,..." (e.g. "256x256=0.5,720x1280=0.5");
// a bucket without "=WEIGHT" weighs 1. Each bad entry is an error naming
// it.
func ParseImageSizes(s string) ([]ImageSize, error) {
	var out []ImageSize
	seen := map[string]bool{}
	for entry := range strings.SplitSeq(s, ",") {
		entry = strings.TrimSpace(entry)
		size, weight, hasWeight := strings.Cut(entry, "=")
		b, err := parseSize(size)
		if err != nil {
			return nil, fmt.Errorf("image size %q: %w", entry, err)
		}
		b.Weight = 1
		if hasWeight {
			w, err := strconv.ParseFloat(weight, 64)
			if err != nil || !(w > 0) || math.IsInf(w, 0) {
				return nil, fmt.Errorf("image size %q: want a weight greater than 0, got %q", entry, weight)
			}
			b.Weight = w
		}
		if seen[size] {
			return nil, fmt.Errorf("image size %q: %s given twice", entry, size)
		}
		seen[size] = true
		out = append(out, b)
	}
	return out, nil
}

// parseSize parses "WxH".
func parseSize(s string) (ImageSize, error) {
	ws, hs, ok := strings.Cut(s, "x")
	w, errW := strconv.Atoi(ws)
	h, errH := strconv.Atoi(hs)
	if !ok || errW != nil || errH != nil {
		return ImageSize{}, fmt.Errorf("want WIDTHxHEIGHT in pixels, e.g. 720x1280")
	}
	if w < 1 || h < 1 || w > maxImageSide || h > maxImageSide {
		return ImageSize{}, fmt.Errorf("each side must be in [1, %d] pixels, got %dx%d", maxImageSide, w, h)
	}
	return ImageSize{Width: w, Height: h}, nil
}

// String writes the bucket as ParseImageSizes reads it.
func (b ImageSize) String() string {
	return fmt.Sprintf("%dx%d=%s", b.Width, b.Height, strconv.FormatFloat(b.Weight, 'g', -1, 64))
}
