package telemetry

import (
	"context"
	"time"
)

// Reading is one GPU's state at one instant. A quantity the source did not
// report is nil, never 0.
type Reading struct {
	// At is when the values were read, on the source's clock.
	At time.Time
	// GPU is the GPU's index; UUID and Name identify it where known.
	GPU  int
	UUID string
	Name string
	// UtilizationPercent is the share of the last sample period in which a
	// kernel ran (0-100).
	UtilizationPercent *float64
	// MemoryUsedMiB is the device memory in use, in MiB.
	MemoryUsedMiB *float64
	// PowerW is the power draw in watts.
	PowerW *float64
	// SMClockMHz is the SM clock in MHz.
	SMClockMHz *float64
	// TemperatureC is the GPU temperature in degrees Celsius.
	TemperatureC *float64
	// EnergyMJ is the GPU's total-energy counter in millijoules, where the
	// source has one: only differences between readings mean anything.
	EnergyMJ *float64
}

// Source reads GPU telemetry.
type Source interface {
	// Name is "nvml", "nvidia-smi", "dcgm" or another short name.
	Name() string
	// Stream reads every GPU about once per interval, passing each GPU's
	// reading to emit, until ctx is done; then it returns nil. A failure
	// that ends the stream early is returned; a failed reading that the
	// next one may recover from is passed to warn. emit and warn are
	// called from one goroutine at a time.
	Stream(ctx context.Context, interval time.Duration, emit func(Reading), warn func(error)) error
	// Close releases the source.
	Close() error
}

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }
