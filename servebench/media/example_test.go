package media_test

import (
	"fmt"

	"github.com/servebench/servebench/servebench/media"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// A pool of two 32×16 gradient PNGs, attached to a one-row workload: the
// row's prompt becomes a user message with a text part and an image part.
func ExampleBuildPool() {
	sizes, err := media.ParseImageSizes("32x16=1")
	if err != nil {
		panic(err)
	}
	pool, err := media.BuildPool(media.PoolSpec{Sizes: sizes, Format: media.FormatPNG, Content: media.ContentGradient, Size: 2, Seed: 1})
	if err != nil {
		panic(err)
	}
	w := &schedule.Workload{Name: "w.jsonl", Requests: []record.Request{{ID: "a", Prompt: "What is this?", MaxTokens: 8}}}
	w, err = pool.Attach(w, "")
	if err != nil {
		panic(err)
	}
	m := record.MediaOf(&w.Requests[0])
	fmt.Println(len(w.Requests[0].Messages[0].Parts), "parts;", m.Images, "image of", m.ImagePixels, "pixels")
	// Output: 2 parts; 1 image of 512 pixels
}

func ExampleParseImageSizes() {
	sizes, err := media.ParseImageSizes("256x256=0.5,720x1280=0.5")
	fmt.Println(sizes, err)
	_, err = media.ParseImageSizes("720x1280=0")
	fmt.Println(err)
	// Output:
	// [256x256=0.5 720x1280=0.5] <nil>
	// image size "720x1280=0": want a weight greater than 0, got "0"
}
