package simengine

import (
	"errors"

	"github.com/testcontainers/testcontainers-go"
)

// options are the simulated engine module's own settings, read by Run.
type options struct {
	binary    string
	bridge    bool
	keepImage bool
}

// Option is a setting of the simulated engine module. It satisfies
// testcontainers.ContainerCustomizer so that it can be passed to Run beside
// the shared containers options; its Customize does nothing.
type Option func(*options) error

// Customize implements testcontainers.ContainerCustomizer; Run reads the
// option itself.
func (o Option) Customize(*testcontainers.GenericContainerRequest) error { return nil }

// WithBinary uses an already built static Linux binary of cmd/simengine
// instead of running `go build` (see BuildBinary).
func WithBinary(path string) Option {
	return func(o *options) error {
		if path == "" {
			return errors.New("simengine.WithBinary: empty path")
		}
		o.binary = path
		return nil
	}
}

// WithBridgeNetwork runs the container on Docker's default bridge network
// with its port published on 127.0.0.1 (an ephemeral host port), instead of
// the default host network.
func WithBridgeNetwork() Option {
	return func(o *options) error {
		o.bridge = true
		return nil
	}
}

// WithKeepImage keeps the built image after Terminate, so that later runs
// with the same binary reuse it.
func WithKeepImage() Option {
	return func(o *options) error {
		o.keepImage = true
		return nil
	}
}
