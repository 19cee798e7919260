package module

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/testcontainers/testcontainers-go"
)

// FlagSet declares one engine's own command-line flags: the engine kind
// that prefixes its options' errors, and the order in which the flags are
// written. A module keeps one FlagSet and writes each of its With… options
// as one call to a FlagSet constructor (Text, Positive, OneOf, …), so that
// the module holds only what is specific to its engine.
type FlagSet struct {
	// Kind names the engine ("vllm", …); errors read "<kind>.<Option>: …".
	Kind string
	// Order is the order of the flags on the command line; flags not
	// listed follow in the order they were set.
	Order []string
}

// FlagOption sets one of an engine's own flags. A module names it as its
// Option type. It satisfies testcontainers.ContainerCustomizer so that it can
// be passed to Run beside the shared options; its Customize does nothing,
// because the module reads it (FlagSet.Collect) before building the request.
type FlagOption struct {
	kind string
	set  func(*Flags) error
}

// Customize implements testcontainers.ContainerCustomizer; the module reads
// the option itself.
func (FlagOption) Customize(*testcontainers.GenericContainerRequest) error { return nil }

// Flags are the values an engine's options set, by flag.
type Flags struct {
	order  []string
	set    []string
	values map[string][]string
}

// Get returns the value of flag and whether it was set; a switch has the
// value "".
func (f Flags) Get(flag string) (string, bool) {
	v, ok := f.values[flag]
	if !ok || len(v) == 0 {
		return "", ok
	}
	return v[0], true
}

// Has says whether flag was set.
func (f Flags) Has(flag string) bool {
	_, ok := f.values[flag]
	return ok
}

// Args returns the flags and their values in the FlagSet's order, then the
// flags it does not list in the order they were set. Names that do not
// begin with "-" are module settings (read with Get), not flags, and are
// never written.
func (f Flags) Args() []string {
	var args []string
	emit := func(flag string) {
		args = append(args, flag)
		args = append(args, f.values[flag]...)
	}
	for _, flag := range f.order {
		if strings.HasPrefix(flag, "-") && f.Has(flag) {
			emit(flag)
		}
	}
	for _, flag := range f.set {
		if strings.HasPrefix(flag, "-") && !slices.Contains(f.order, flag) {
			emit(flag)
		}
	}
	return args
}

// Collect applies, in order, the FlagOptions in opts that belong to this
// engine and returns the flags they set. It ignores the other customizers
// (shared options, testcontainers options), and refuses another engine's
// options, which would otherwise be dropped without a word.
func (fs FlagSet) Collect(opts []testcontainers.ContainerCustomizer) (Flags, error) {
	f := Flags{order: fs.Order, values: map[string][]string{}}
	for _, opt := range opts {
		o, ok := opt.(FlagOption)
		if !ok || o.set == nil {
			continue
		}
		if o.kind != fs.Kind {
			return Flags{}, fmt.Errorf("a %s option was passed to %s", o.kind, fs.Kind)
		}
		if err := o.set(&f); err != nil {
			return Flags{}, err
		}
	}
	return f, nil
}

// option returns a FlagOption that checks value with check and then sets
// flag to it (values: nothing for a switch, one value otherwise).
func (fs FlagSet) option(name, flag string, check func() error, values ...string) FlagOption {
	return FlagOption{kind: fs.Kind, set: func(f *Flags) error {
		if err := check(); err != nil {
			return fmt.Errorf("%s.%s: %w", fs.Kind, name, err)
		}
		if !f.Has(flag) {
			f.set = append(f.set, flag)
		}
		f.values[flag] = values
		return nil
	}}
}

// Text sets flag to a non-empty value; option names the With… function in
// errors.
func (fs FlagSet) Text(option, flag, value string) FlagOption {
	return fs.option(option, flag, func() error {
		if value == "" {
			return fmt.Errorf("empty value for %s", flag)
		}
		return nil
	}, value)
}

// Positive sets flag to a positive integer.
func (fs FlagSet) Positive(option, flag string, n int) FlagOption {
	return fs.option(option, flag, func() error {
		if n <= 0 {
			return fmt.Errorf("must be positive, got %d", n)
		}
		return nil
	}, strconv.Itoa(n))
}

// Fraction sets flag to a number in (0, 1].
func (fs FlagSet) Fraction(option, flag string, v float64) FlagOption {
	return fs.option(option, flag, func() error {
		if !(v > 0 && v <= 1) {
			return fmt.Errorf("%v is not in (0, 1]", v)
		}
		return nil
	}, strconv.FormatFloat(v, 'f', -1, 64))
}

// OneOf sets flag to value, which must be one of allowed.
func (fs FlagSet) OneOf(option, flag, value string, allowed ...string) FlagOption {
	return fs.option(option, flag, func() error {
		if !slices.Contains(allowed, value) {
			return fmt.Errorf("%q is not one of %s", value, strings.Join(allowed, ", "))
		}
		return nil
	}, value)
}

// Checked sets flag to value after check accepts it; for values the other
// constructors do not cover.
func (fs FlagSet) Checked(option, flag, value string, check func(string) error) FlagOption {
	return fs.option(option, flag, func() error { return check(value) }, value)
}

// Switch sets a flag that takes no value.
func (fs FlagSet) Switch(option, flag string) FlagOption {
	return fs.option(option, flag, func() error { return nil })
}
