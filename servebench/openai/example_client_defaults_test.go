package openai_test

import (
	"fmt"

	"github.com/servebench/servebench/servebench/openai"
)

// NewClient is set as the servebench command sets its client; the zero
// Client is not (it neither streams nor has a deadline).
func ExampleNewClient() {
	c := openai.NewClient("http://127.0.0.1:8000", "qwen2.5-0.5b")
	fmt.Println(c.Endpoint, c.Stream, c.TotalTimeout, c.IdleTimeout, c.FirstTokenTimeout, c.LengthControl)
	var zero openai.Client
	fmt.Println(zero.Stream, zero.TotalTimeout, zero.IdleTimeout)
	// Output:
	// chat true 5m0s 1m0s 0s ignore_eos
	// false 0s 0s
}
