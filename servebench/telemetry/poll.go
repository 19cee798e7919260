package telemetry

import (
	"context"
	"errors"
	"time"
)

// closingReadTimeout bounds the last reading a polled source takes after
// its stream was asked to stop.
const closingReadTimeout = 2 * time.Second

// pollLoop drives a source that is read on demand (NVML, DCGM): one
// reading at once, one per interval, and a closing one when ctx ends, so
// that the readings span the whole measurement. A reading that stopping
// cut short is no sampling error: the closing reading takes its place.
func pollLoop(ctx context.Context, interval time.Duration, read func(context.Context) ([]Reading, error), emit func(Reading), warn func(error)) error {
	readOnce := func(ctx context.Context) {
		rs, err := read(ctx)
		if err != nil {
			if !errors.Is(ctx.Err(), context.Canceled) {
				warn(err)
			}
			return
		}
		for _, r := range rs {
			emit(r)
		}
	}
	readOnce(ctx)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			closing, cancel := context.WithTimeout(context.WithoutCancel(ctx), closingReadTimeout)
			readOnce(closing)
			cancel()
			return nil
		case <-t.C:
			readOnce(ctx)
		}
	}
}
