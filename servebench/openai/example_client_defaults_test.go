package openai_test

import (
	"fmt"

	"github.com/servebench/servebench/servebench/openai"
)

// NewClient is set as the servebench command sets its client. The zero
// Client behaves the same: an empty Endpoint is chat, it streams unless
// NoStream, and its zero deadlines stand for the defaults.
func ExampleNewClient() {
	c := openai.NewClient("http://127.0.0.1:8000", "qwen2.5-0.5b")
	fmt.Println(c.Endpoint, !c.NoStream, c.TotalTimeout, c.IdleTimeout, c.FirstTokenTimeout, c.LengthControl)
	zero := openai.Client{BaseURL: "http://127.0.0.1:8000", Model: "qwen2.5-0.5b"}
	firstToken, idle, total := zero.Deadlines()
	fmt.Println(zero.ResolvedEndpoint(), !zero.NoStream, total, idle, firstToken)
	// Output:
	// chat true 5m0s 1m0s 0s ignore_eos
	// chat true 5m0s 1m0s 0s
}

// NoDeadline turns a deadline off where zero would stand for its default.
func ExampleNoDeadline() {
	c := openai.NewClient("http://127.0.0.1:8000", "qwen2.5-0.5b")
	c.TotalTimeout, c.IdleTimeout = openai.NoDeadline, 0
	firstToken, idle, total := c.Deadlines()
	fmt.Println(firstToken, idle, total)
	// Output:
	// 0s 1m0s 0s
}
