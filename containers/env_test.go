package containers

import (
	"os"
	"strings"
	"testing"
)

func TestUseAirGappedDefaultsSetsUnsetVariables(t *testing.T) {
	t.Setenv(EnvRyukDisabled, "")
	t.Setenv(EnvHostOverride, "")
	os.Unsetenv(EnvRyukDisabled)
	os.Unsetenv(EnvHostOverride)
	if err := UseAirGappedDefaults(); err != nil {
		t.Fatal(err)
	}
	if got := os.Getenv(EnvRyukDisabled); got != "true" {
		t.Errorf("%s = %q", EnvRyukDisabled, got)
	}
	if got := os.Getenv(EnvHostOverride); got != "127.0.0.1" {
		t.Errorf("%s = %q", EnvHostOverride, got)
	}
}

func TestUseAirGappedDefaultsKeepsChosenValues(t *testing.T) {
	t.Setenv(EnvRyukDisabled, "false")
	t.Setenv(EnvHostOverride, "localhost")
	if err := UseAirGappedDefaults(); err != nil {
		t.Fatal(err)
	}
	if os.Getenv(EnvRyukDisabled) != "false" || os.Getenv(EnvHostOverride) != "localhost" {
		t.Error("a value the caller chose was replaced")
	}
}

func TestUseAirGappedDefaultsRejectsTrueLookalikes(t *testing.T) {
	for _, v := range []string{"1", "TRUE", "True", "t"} {
		t.Setenv(EnvRyukDisabled, v)
		err := UseAirGappedDefaults()
		if err == nil || !strings.Contains(err.Error(), "leaves Ryuk enabled") {
			t.Errorf("%s=%q: error %v", EnvRyukDisabled, v, err)
		}
	}
}
