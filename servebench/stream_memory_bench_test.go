package servebench_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// heldStreams is a server whose streams send one token and then wait for
// release before they finish, so that a client's streams can be counted
// while all of them are open.
type heldStreams struct {
	open    atomic.Int64
	release chan struct{}
}

func (h *heldStreams) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", "text/event-stream")
	_, _ = io.WriteString(w, "data: {\"choices\":[{\"index\":0,\"text\":\" x\",\"finish_reason\":null}]}\n\n")
	w.(http.Flusher).Flush()
	h.open.Add(1)
	<-h.release
	_, _ = io.WriteString(w, "data: {\"choices\":[{\"index\":0,\"text\":\" y\",\"finish_reason\":\"length\"}]}\n\n"+
		"data: {\"choices\":[],\"usage\":{\"prompt_tokens\":2,\"completion_tokens\":2,\"total_tokens\":4}}\n\ndata: [DONE]\n\n")
}

// liveBytes is the heap in use and the goroutine stacks after two
// collections.
func liveBytes() (heap, stacks uint64) {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc, m.StackInuse
}

// waitOpen waits until n streams are open (at most a minute).
func waitOpen(h *heldStreams, n int64) error {
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if h.open.Load() >= n {
			return nil
		}
	}
	return fmt.Errorf("%d of %d streams opened", h.open.Load(), n)
}

// leanStreams opens n streams the way the lean reference client of
// cmd/loadcheck does (a goroutine per request, net/http, a bufio line
// reader) and reads each to its end.
func leanStreams(url string, n int) (wait func()) {
	tr := &http.Transport{MaxIdleConnsPerHost: 4096, DisableCompression: true}
	client := &http.Client{Transport: tr}
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := fmt.Sprintf(`{"model":"m","prompt":"p %d","max_tokens":2,"stream":true}`, i)
			resp, err := client.Post(url+"/v1/completions", "application/json", strings.NewReader(body))
			if err != nil {
				return
			}
			defer resp.Body.Close()
			br := bufio.NewReader(resp.Body)
			for {
				line, err := br.ReadSlice('\n')
				if err != nil || strings.HasPrefix(string(line), "data: [DONE]") {
					return
				}
			}
		}()
	}
	return func() { wg.Wait(); tr.CloseIdleConnections() }
}

// BenchmarkBytesPerStream opens 1,000 streams against one local server,
// once through servebench.Run (the openai client, its outcome file) and
// once through a lean client, and reports for each the heap and the
// goroutine stacks in use per open stream (bytes, after a collection, the
// in-process server's share included in both) and servebench's heap per
// stream above the lean client's, where the server's share cancels.
// Counts, not timings:
//
//	go test -run '^$' -bench BytesPerStream -benchtime 1x ./servebench
func BenchmarkBytesPerStream(b *testing.B) {
	const n = 1000
	measure := func(b *testing.B, open func(url string, h *heldStreams) (wait func() error)) (heap, stacks float64) {
		h := &heldStreams{release: make(chan struct{})}
		srv := httptest.NewServer(h)
		defer srv.Close()
		heap0, stacks0 := liveBytes()
		wait := open(srv.URL, h)
		if err := waitOpen(h, n); err != nil {
			close(h.release)
			b.Fatal(err)
		}
		heap1, stacks1 := liveBytes()
		close(h.release)
		if err := wait(); err != nil {
			b.Fatal(err)
		}
		return (float64(heap1) - float64(heap0)) / n, (float64(stacks1) - float64(stacks0)) / n
	}
	w, err := schedule.ParseWorkload("bench.jsonl", []byte(`{"prompt":"p","max_tokens":2}`))
	if err != nil {
		b.Fatal(err)
	}
	var sbHeap, sbStacks, leanHeap, leanStacks float64
	for range b.N {
		sbHeap, sbStacks = measure(b, func(url string, _ *heldStreams) func() error {
			client := &openai.Client{BaseURL: url, Model: "m", Endpoint: record.EndpointCompletions, TotalTimeout: time.Minute,
				HTTPClient: &http.Client{Transport: openai.NewTransport()}}
			a, _ := schedule.NewArrival(schedule.ArrivalSpec{Process: schedule.ProcessConstant, RateRPS: 2000})
			done := make(chan error, 1)
			go func() {
				res, err := servebench.Run(context.Background(), servebench.RunConfig{
					Workload: w, Arrival: a, Count: n, Client: client, OutputDir: b.TempDir(),
				})
				if err == nil && res.Report.ProtocolSuccesses != n {
					err = fmt.Errorf("%d of %d succeeded", res.Report.ProtocolSuccesses, n)
				}
				done <- err
			}()
			return func() error { return <-done }
		})
		leanHeap, leanStacks = measure(b, func(url string, _ *heldStreams) func() error {
			wait := leanStreams(url, n)
			return func() error { wait(); return nil }
		})
	}
	b.ReportMetric(sbHeap, "servebench-heap-B/stream")
	b.ReportMetric(sbStacks, "servebench-stack-B/stream")
	b.ReportMetric(leanHeap, "lean-heap-B/stream")
	b.ReportMetric(leanStacks, "lean-stack-B/stream")
	b.ReportMetric(sbHeap-leanHeap, "extra-heap-B/stream")
}
