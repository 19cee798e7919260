package openai

import "testing"

// BenchmarkDecodeChunk measures the fast decode of one stream chunk: a
// vLLM chat chunk and a completions chunk, as a 64-token stream sends 64
// of them a request.
func BenchmarkDecodeChunk(b *testing.B) {
	for _, bc := range []struct{ name, data string }{
		{"chat", `{"id":"chatcmpl-8f1c2a7e0b6d4e3f9a5b","object":"chat.completion.chunk","created":1764400000,"model":"bench","choices":[{"index":0,"delta":{"content":" tok7"},"logprobs":null,"finish_reason":null}]}`},
		{"completions", `{"id":"cmpl-1","object":"text_completion","choices":[{"index":0,"text":" tok","finish_reason":null}]}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			data := []byte(bc.data)
			var c wireChunk
			b.ReportAllocs()
			for b.Loop() {
				c.reset()
				if !decodeChunkFast(data, &c) {
					b.Fatal("the fast path refused the chunk")
				}
			}
		})
	}
}
