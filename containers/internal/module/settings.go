package module

import (
	"fmt"

	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
)

// ApplySettings applies every containers.Option found in opts to s, in order, and
// ignores the other customizers (a module's own options, testcontainers'
// options). Modules call it from Run.
func ApplySettings(s *containers.Settings, opts []testcontainers.ContainerCustomizer) error {
	return Collect[containers.Option](s, opts)
}

// Collect applies every customizer of the option type O found in opts to
// target, in order, and ignores the others. Engine modules use it to read
// their own options (a func type with a no-op Customize method) out of the
// customizers passed to Run.
func Collect[O ~func(*T) error, T any](target *T, opts []testcontainers.ContainerCustomizer) error {
	for _, opt := range opts {
		o, ok := opt.(O)
		if !ok || o == nil {
			continue
		}
		if err := o(target); err != nil {
			return err
		}
	}
	return nil
}

// Positive returns an error naming option when n is not positive.
func Positive(option string, n int) error {
	if n <= 0 {
		return fmt.Errorf("%s: must be positive, got %d", option, n)
	}
	return nil
}
