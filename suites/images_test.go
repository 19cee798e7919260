package suites_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/servebench/media"
	"github.com/servebench/servebench/suites"
)

var _ = Describe("the images field", func() {
	It("reads a synthetic pool", func() {
		c, err := suites.Parse(inline, []byte(minimal+"images:\n  sizes: {256x256: 0.5, 720x1280: 0.5}\n  format: png\n  content: gradient\n  pool: 20\n  per_request: 2\n  transport: http\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Images.Sizes).To(ConsistOf(media.ImageSize{Width: 256, Height: 256, Weight: 0.5}, media.ImageSize{Width: 720, Height: 1280, Weight: 0.5}))
		Expect(c.Images.Format).To(Equal(media.FormatPNG))
		Expect(c.Images.Content).To(Equal(media.ContentGradient))
		Expect(c.Images.Size).To(Equal(20))
		Expect(c.Images.PerRequest).To(Equal(2))
		Expect(c.Images.Transport).To(Equal(media.TransportHTTP))
	})

	It("has no pool when absent", func() {
		c, err := suites.Parse(inline, []byte(minimal))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Images).To(BeNil())
	})

	DescribeTable("names the file, line and field of a bad value",
		func(block, want string) {
			_, err := suites.Parse(inline, []byte(minimal+block+"\n"))
			Expect(err).To(HaveOccurred())
			Expect(strings.Split(err.Error(), "\n")).To(ContainElement(want))
		},
		Entry("a bad size", "images:\n  sizes: {256by256: 1}",
			`testdata/inline.yaml:11:11: images.sizes.256by256: image size "256by256=1": want WIDTHxHEIGHT in pixels, e.g. 720x1280`),
		Entry("a zero weight", "images:\n  sizes: {8x8: 0}",
			`testdata/inline.yaml:11:11: images.sizes.8x8: image size "8x8=0": want a weight greater than 0, got "0"`),
		Entry("an unknown format", "images:\n  sizes: {8x8: 1}\n  format: webp",
			`testdata/inline.yaml:12:11: images.format: unknown image format "webp": want jpeg or png`),
		Entry("a server without http", "images:\n  sizes: {8x8: 1}\n  server: 127.0.0.1:0",
			`testdata/inline.yaml:12:11: images.server: only with transport: http`),
		Entry("no sizes", "images:\n  pool: 3",
			`testdata/inline.yaml:11:3: images.sizes: required`),
		Entry("an unknown field", "images:\n  sizes: {8x8: 1}\n  colour: red",
			`testdata/inline.yaml:12:3: images.colour: unknown field (known: content, format, per_request, pool, server, sizes, transport)`),
		Entry("an endpoint without images", "endpoint: completions\nimages:\n  sizes: {8x8: 1}",
			`testdata/inline.yaml:12:3: images: the completions endpoint takes no images (use endpoint: chat or responses)`),
	)
})
