package containers_test

import (
	"fmt"

	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
)

// A LogRing keeps the end of an engine's output, dropping whole old lines
// once it is full.
func ExampleLogRing() {
	ring := containers.NewLogRing(32)
	ring.Accept(testcontainers.Log{Content: []byte("INFO loading weights\n")})
	ring.Accept(testcontainers.Log{Content: []byte("ERROR CUDA out of memory\n")})
	fmt.Print(ring.String())
	// Output:
	// [21 earlier bytes dropped]
	// ERROR CUDA out of memory
}
