package sse

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"testing"
)

// vllmChatStream renders a chat completion stream shaped like vLLM's: a
// role-only first chunk, one chunk per token, a finish chunk, the
// include_usage chunk and [DONE].
func vllmChatStream(tokens int) (stream []byte, events int) {
	var b bytes.Buffer
	head := `{"id":"chatcmpl-8f1c2a7e0b6d4e3f9a5b","object":"chat.completion.chunk","created":1764400000,"model":"Qwen/Qwen3-0.6B",`
	fmt.Fprintf(&b, "data: %s\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n", head)
	for i := range tokens {
		fmt.Fprintf(&b, "data: %s\"choices\":[{\"index\":0,\"delta\":{\"content\":\" word%d\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n", head, i)
	}
	fmt.Fprintf(&b, "data: %s\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\"},\"logprobs\":null,\"finish_reason\":\"length\",\"stop_reason\":null}]}\n\n", head)
	fmt.Fprintf(&b, "data: %s\"choices\":[],\"usage\":{\"prompt_tokens\":128,\"total_tokens\":%d,\"completion_tokens\":%d}}\n\n", head, 128+tokens, tokens)
	b.WriteString("data: [DONE]\n\n")
	return b.Bytes(), tokens + 4
}

// BenchmarkReader parses a 64-token vLLM-style chat stream, delivered in
// reads of 1 KiB (a TCP segment carries a few events). It reports events
// per second and allocations per event.
func BenchmarkReader(b *testing.B) {
	stream, events := vllmChatStream(64)
	src := &sizedReader{}
	r := NewReader(src)
	b.SetBytes(int64(len(stream)))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for b.Loop() {
		src.data, src.size = stream, 1024
		r.Reset(src)
		n := 0
		for {
			_, err := r.Next()
			if err != nil {
				if err != io.EOF {
					b.Fatal(err)
				}
				break
			}
			n++
		}
		if n != events {
			b.Fatalf("%d events, want %d", n, events)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	total := float64(b.N) * float64(events)
	b.ReportMetric(total/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/total, "allocs/event")
}

// sizedReader returns data in reads of at most size bytes.
type sizedReader struct {
	data []byte
	size int
}

func (s *sizedReader) Read(p []byte) (int, error) {
	if len(s.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), s.size)], s.data)
	s.data = s.data[n:]
	return n, nil
}
