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

// The images a request sends depend on the pool's seed and the request's
// entry ID only: row a's first use (ID "a") and its second ("a#2") each
// draw their own image from a pool of 6, the same in every rerun.
func ExampleDrawImages() {
	fmt.Println(media.DrawImages(11, "a", 6, 1), media.DrawImages(11, "a#2", 6, 1), media.DrawImages(11, "a#3", 6, 1))
	// Output: [0] [3] [2]
}
