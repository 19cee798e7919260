//go:build !(linux && (amd64 || arm64) && (cgo || nvml))

package telemetry

import "errors"

// nvmlLib is empty where NVML is not loaded: a build without cgo and
// without the nvml tag (a fully static binary), or another platform.
type nvmlLib struct {
	init                            func() int32
	shutdown                        func() int32
	errorString                     func(int32) string
	deviceGetCount                  func(*uint32) int32
	deviceGetHandleByIndex          func(uint32, *uintptr) int32
	deviceGetName                   func(uintptr, *byte, uint32) int32
	deviceGetUUID                   func(uintptr, *byte, uint32) int32
	deviceGetUtilizationRates       func(uintptr, *nvmlUtilization) int32
	deviceGetMemoryInfo             func(uintptr, *nvmlMemory) int32
	deviceGetPowerUsage             func(uintptr, *uint32) int32
	deviceGetClockInfo              func(uintptr, uint32, *uint32) int32
	deviceGetTemperature            func(uintptr, uint32, *uint32) int32
	deviceGetTotalEnergyConsumption func(uintptr, *uint64) int32
}

// loadNVML always fails here.
func loadNVML(string) (*nvmlLib, error) {
	return nil, errors.New("this build does not load NVML (a static build: rebuild with cgo, or with -tags nvml, to load libnvidia-ml.so.1)")
}
