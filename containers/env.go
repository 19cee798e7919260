package containers

import (
	"fmt"
	"os"
	"strconv"
)

// The testcontainers settings that machines without a registry need.
const (
	// EnvRyukDisabled must be exactly "true" to disable Ryuk, the reaper
	// container, whose image cannot be pulled without a registry.
	EnvRyukDisabled = "TESTCONTAINERS_RYUK_DISABLED"
	// EnvHostOverride sets the address testcontainers dials to reach
	// published ports; 127.0.0.1 keeps every connection on the machine.
	EnvHostOverride = "TESTCONTAINERS_HOST_OVERRIDE"
)

// UseAirGappedDefaults sets TESTCONTAINERS_RYUK_DISABLED=true and
// TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1 where they are unset. Call it from
// TestMain or a BeforeSuite, before anything else touches testcontainers:
// testcontainers reads its configuration once per process.
//
// Ryuk is only disabled by the exact string "true"; a value such as "1" or
// "TRUE" silently leaves it enabled, so UseAirGappedDefaults returns an error
// for those rather than letting the first container start try to pull it.
func UseAirGappedDefaults() error {
	if v, ok := os.LookupEnv(EnvRyukDisabled); ok {
		if b, err := strconv.ParseBool(v); err == nil && b && v != "true" {
			return fmt.Errorf("%s=%q leaves Ryuk enabled: testcontainers disables it only for the exact string \"true\"", EnvRyukDisabled, v)
		}
	} else if err := os.Setenv(EnvRyukDisabled, "true"); err != nil {
		return err
	}
	if _, ok := os.LookupEnv(EnvHostOverride); !ok {
		if err := os.Setenv(EnvHostOverride, "127.0.0.1"); err != nil {
			return err
		}
	}
	return nil
}
