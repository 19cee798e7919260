package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// streamServer is a fast OpenAI-style streaming server that records, per
// X-Request-Id, its own time from receiving a request to writing the first
// token, so the client's added latency can be measured request by request.
// It waits firstToken before the first token and interval between tokens.
type streamServer struct {
	tokens     int
	firstToken time.Duration
	interval   time.Duration

	mu    sync.Mutex
	first map[string]float64 // request id -> server TTFT in ms
}

// newStreamServer serves streams of tokens events.
func newStreamServer(tokens int, firstToken, interval time.Duration) *streamServer {
	return &streamServer{tokens: tokens, firstToken: firstToken, interval: interval, first: map[string]float64{}}
}

// chunk is one pre-rendered completions event carrying one token.
var chunk = []byte("data: {\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"choices\":[{\"index\":0,\"text\":\" tok\",\"finish_reason\":null}]}\n\n")

func (s *streamServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/stats":
		s.stats(w, r)
		return
	case "/v1/completions":
	default:
		http.NotFound(w, r)
		return
	}
	received := time.Now()
	_, _ = io.Copy(io.Discard, r.Body)
	flusher := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	for i := 0; i < s.tokens; i++ {
		wait := s.interval
		if i == 0 {
			wait = s.firstToken
		}
		if wait > 0 {
			time.Sleep(wait)
		}
		_, _ = w.Write(chunk)
		flusher.Flush()
		if i == 0 {
			ttft := float64(time.Since(received)) / float64(time.Millisecond)
			s.mu.Lock()
			s.first[r.Header.Get("X-Request-Id")] = ttft
			s.mu.Unlock()
		}
	}
	fmt.Fprintf(w, "data: {\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"choices\":[{\"index\":0,\"text\":\"\",\"finish_reason\":\"length\"}]}\n\n")
	fmt.Fprintf(w, "data: {\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"choices\":[],\"usage\":{\"prompt_tokens\":8,\"completion_tokens\":%d,\"total_tokens\":%d}}\n\n", s.tokens, s.tokens+8)
	_, _ = io.WriteString(w, "data: [DONE]\n\n")
}

// stats writes the server's first-token times (ms) by request id as JSON.
// With ?prefix=P only the ids starting with P are written, and they are
// forgotten, so that a server shared by many runs does not grow.
func (s *streamServer) stats(w http.ResponseWriter, r *http.Request) {
	prefix, take := r.URL.Query().Get("prefix"), r.URL.Query().Has("prefix")
	s.mu.Lock()
	out := s.first
	if take {
		out = map[string]float64{}
		for id, ms := range s.first {
			if strings.HasPrefix(id, prefix) {
				out[id] = ms
				delete(s.first, id)
			}
		}
	}
	data, err := json.Marshal(out)
	s.mu.Unlock()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(data)
}

// serve runs the server until killed. It prints its address on stdout.
func serve(args []string) error {
	fs := flag.NewFlagSet("loadcheck serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "listen address (loopback)")
	tokens := fs.Int("tokens", 64, "tokens per stream")
	firstToken := fs.Duration("first-token-delay", 0, "time from the request to the first token")
	interval := fs.Duration("token-interval", time.Millisecond, "time between tokens")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Println("http://" + ln.Addr().String())
	srv := &http.Server{Handler: newStreamServer(*tokens, *firstToken, *interval), ReadHeaderTimeout: 10 * time.Second}
	return srv.Serve(ln)
}
