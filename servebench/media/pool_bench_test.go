package media

import (
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// BenchmarkPoolSpool1000x720x1280 generates and encodes 1,000 noise JPEGs
// of 720×1280 in parallel, spooled to disk as data: URLs, and reports the
// time per pool and the peak heap while building it (sampled every 5 ms).
// Run it alone: go test ./servebench/media -run '^$' -bench Spool -benchtime 1x
func BenchmarkPoolSpool1000x720x1280(b *testing.B) {
	spec := PoolSpec{Sizes: []ImageSize{{720, 1280, 1}}, Format: FormatJPEG, Content: ContentNoise, Size: 1000,
		MemoryLimit: -1}
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	runtime.GC()
	var spooled int64
	for b.Loop() {
		spec.SpoolDir = b.TempDir()
		p, err := BuildPool(spec)
		if err != nil {
			b.Fatal(err)
		}
		for _, img := range p.Images {
			spooled += int64(img.Bytes)
		}
	}
	close(stop)
	<-done
	b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(spooled)/float64(b.N)/(1<<20), "image-MiB/pool")
}

// BenchmarkEntryRequest is what one send pays on the timed path to carry
// its own images: the draw of 2 images from a pool of 100 by the entry ID,
// and the copy of a system-and-user chat row with the image parts added
// (pointers to prepared images: nothing encoded).
func BenchmarkEntryRequest(b *testing.B) {
	p, err := BuildPool(PoolSpec{Sizes: []ImageSize{{8, 8, 1}}, Format: FormatPNG, Content: ContentGradient, Size: 100, PerRequest: 2, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	w, err := p.Attach(&schedule.Workload{Name: "w", Requests: []record.Request{{ID: "row-1", MaxTokens: 8,
		Messages: []record.Message{{Role: "system", Content: "be brief"}, {Role: "user", Content: "what is this?"}}}}}, "")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = w.PerRequest.Request("row-1#1234", 0)
	}
}
