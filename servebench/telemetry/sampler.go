package telemetry

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/servebench/servebench/servebench/report"
)

// DefaultInterval is the sample interval when none is given.
const DefaultInterval = time.Second

// Options says where to read the GPUs and how often.
type Options struct {
	// Interval is the time between readings (DefaultInterval when 0).
	Interval time.Duration
	// DCGMURL is a DCGM exporter's metrics endpoint, e.g.
	// http://127.0.0.1:9400/metrics. When set it is the only source tried.
	DCGMURL string
	// NVMLLibrary is the NVML library to load (default libnvidia-ml.so.1,
	// found by the dynamic loader's search path).
	NVMLLibrary string
	// NvidiaSMI is the nvidia-smi executable (default: nvidia-smi on PATH).
	NvidiaSMI string
	// MaxTimelinePoints bounds each GPU's timeline
	// (DefaultMaxTimelinePoints when 0).
	MaxTimelinePoints int
}

// Sampler samples one Source over each measurement it is started for; it
// is a servebench.GPUSampler, to be set as RunConfig.GPUSampler. A Sampler
// without a source reports "unavailable: <reason>".
type Sampler struct {
	source    Source
	reason    string
	interval  time.Duration
	maxPoints int
}

// Open returns a Sampler over the first source that answers: the DCGM
// exporter when opts.DCGMURL is set, otherwise NVML, otherwise nvidia-smi.
// It never fails: when no source answers, the Sampler's Err says why for
// each one tried, and every measurement reports
// "unavailable: <reason>". Close the Sampler when done.
func Open(ctx context.Context, opts Options) *Sampler {
	s := &Sampler{interval: opts.Interval, maxPoints: opts.MaxTimelinePoints}
	if s.interval <= 0 {
		s.interval = DefaultInterval
	}
	if opts.DCGMURL != "" {
		src, err := OpenDCGM(ctx, opts.DCGMURL)
		if err != nil {
			s.reason = err.Error()
			return s
		}
		s.source = src
		return s
	}
	var reasons []string
	if src, err := OpenNVML(opts.NVMLLibrary); err == nil {
		s.source = src
		return s
	} else {
		reasons = append(reasons, err.Error())
	}
	if src, err := OpenNvidiaSMI(ctx, opts.NvidiaSMI); err == nil {
		s.source = src
		return s
	} else {
		reasons = append(reasons, err.Error())
	}
	s.reason = strings.Join(reasons, "; ")
	return s
}

// NewSampler samples src every interval (DefaultInterval when 0), keeping
// at most maxPoints timeline points per GPU (DefaultMaxTimelinePoints when
// 0). It is how a source of one's own is used.
func NewSampler(src Source, interval time.Duration, maxPoints int) *Sampler {
	if interval <= 0 {
		interval = DefaultInterval
	}
	return &Sampler{source: src, interval: interval, maxPoints: maxPoints}
}

// Source is the source in use; nil when none answered.
func (s *Sampler) Source() Source { return s.source }

// Err says why no source answered; nil when one did.
func (s *Sampler) Err() error {
	if s.source != nil {
		return nil
	}
	return errors.New(s.reason)
}

// Interval is the time between readings.
func (s *Sampler) Interval() time.Duration { return s.interval }

// Close releases the source.
func (s *Sampler) Close() error {
	if s.source == nil {
		return nil
	}
	return s.source.Close()
}

// StartGPUSampling starts reading the GPUs; stop ends the readings and
// summarises them. It implements servebench.GPUSampler.
func (s *Sampler) StartGPUSampling(ctx context.Context) (stop func() *report.GPUTelemetry) {
	if s.source == nil {
		t := &report.GPUTelemetry{Status: "unavailable: " + s.reason, SampleIntervalMS: millis(s.interval), GPUs: []report.GPUStats{}}
		return func() *report.GPUTelemetry { return t }
	}
	rec := NewRecorder(time.Now(), s.maxPoints)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	var streamErr error
	go func() {
		defer close(done)
		streamErr = s.source.Stream(ctx, s.interval,
			func(r Reading) { rec.Add(r, time.Now()) },
			rec.Warn)
	}()
	var once sync.Once
	var out *report.GPUTelemetry
	return func() *report.GPUTelemetry {
		once.Do(func() {
			cancel()
			<-done
			if streamErr != nil {
				rec.Warn(streamErr)
			}
			out = rec.Summary(s.source.Name(), s.interval)
		})
		return out
	}
}
