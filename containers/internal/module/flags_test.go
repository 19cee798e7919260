package module

import (
	"reflect"
	"strings"
	"testing"

	"github.com/servebench/servebench/containers"

	"github.com/testcontainers/testcontainers-go"
)

var testFlags = FlagSet{Kind: "eng", Order: []string{"--model", "--size", "--on"}}

func TestFlagsArgsFollowTheDeclaredOrder(t *testing.T) {
	f, err := testFlags.Collect([]testcontainers.ContainerCustomizer{
		testFlags.Switch("WithOn", "--on"),
		testcontainers.WithEnv(map[string]string{"A": "b"}), // not ours: ignored
		testFlags.Text("WithExtra", "--extra", "x"),         // not in Order: after the ordered ones
		testFlags.Positive("WithSize", "--size", 3),
		testFlags.Text("WithModel", "--model", "m"),
		testFlags.Text("WithBinary", "binary", "/bin/e"), // a setting, never written
		testFlags.Positive("WithSize", "--size", 5),      // a later value replaces an earlier one
		containers.WithExtraArgs("--shared"),             // a shared option: ignored here
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"--model", "m", "--size", "5", "--on", "--extra", "x"}
	if got := f.Args(); !reflect.DeepEqual(got, want) {
		t.Errorf("Args() = %q, want %q", got, want)
	}
	if v, ok := f.Get("binary"); !ok || v != "/bin/e" {
		t.Errorf("Get(binary) = %q, %v", v, ok)
	}
	if v, ok := f.Get("--on"); !ok || v != "" {
		t.Errorf("Get(--on) = %q, %v; a switch is set with no value", v, ok)
	}
	if f.Has("--absent") {
		t.Error("Has(--absent)")
	}
}

func TestFlagsRefuseBadValuesAndOtherEngines(t *testing.T) {
	other := FlagSet{Kind: "other"}
	cases := []struct {
		opt  FlagOption
		want string
	}{
		{testFlags.Text("WithModel", "--model", ""), "eng.WithModel: empty value for --model"},
		{testFlags.Positive("WithSize", "--size", 0), "eng.WithSize: must be positive, got 0"},
		{testFlags.Fraction("WithShare", "--share", 1.5), "eng.WithShare: 1.5 is not in (0, 1]"},
		{testFlags.Fraction("WithShare", "--share", 0), "eng.WithShare: 0 is not in (0, 1]"},
		{testFlags.OneOf("WithDtype", "--dtype", "fp8", "half", "bfloat16"), `eng.WithDtype: "fp8" is not one of half, bfloat16`},
		{other.Text("WithModel", "--model", "m"), "a other option was passed to eng"},
	}
	for _, c := range cases {
		_, err := testFlags.Collect([]testcontainers.ContainerCustomizer{c.opt})
		if err == nil || err.Error() != c.want {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
	f, err := testFlags.Collect([]testcontainers.ContainerCustomizer{testFlags.Fraction("WithShare", "--share", 1)})
	if err != nil || !strings.Contains(strings.Join(f.Args(), " "), "--share 1") {
		t.Errorf("fraction 1: %q, %v", f.Args(), err)
	}
}
