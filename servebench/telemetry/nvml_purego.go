//go:build linux && (amd64 || arm64) && (cgo || nvml)

package telemetry

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/ebitengine/purego"
)

// nvmlLib holds the NVML functions, bound with purego. A cgo build has them
// by default; a build without cgo has them with the nvml tag, at the cost
// of linking the system's dynamic loader (purego's dlopen), so a plain
// CGO_ENABLED=0 build stays static and reads the GPUs through nvidia-smi or
// DCGM instead.
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

// loadNVML opens library and binds every function, or says which is
// missing.
func loadNVML(library string) (*nvmlLib, error) {
	// dlopen's reason is read back with dlerror, which is per thread: pin
	// the goroutine so both calls run on the same one (unpinned, a move
	// between them leaves the reason empty).
	runtime.LockOSThread()
	h, err := purego.Dlopen(library, purego.RTLD_NOW|purego.RTLD_LOCAL)
	runtime.UnlockOSThread()
	if err != nil {
		if strings.Contains(err.Error(), "No such file") || strings.Contains(err.Error(), "cannot open shared object file") {
			return nil, fmt.Errorf("%s not found (%v)", library, err)
		}
		return nil, fmt.Errorf("%s could not be loaded: %v", library, err)
	}
	l := &nvmlLib{}
	for _, b := range []struct {
		fptr any
		name string
	}{
		{&l.init, "nvmlInit_v2"}, {&l.shutdown, "nvmlShutdown"}, {&l.errorString, "nvmlErrorString"},
		{&l.deviceGetCount, "nvmlDeviceGetCount_v2"}, {&l.deviceGetHandleByIndex, "nvmlDeviceGetHandleByIndex_v2"},
		{&l.deviceGetName, "nvmlDeviceGetName"}, {&l.deviceGetUUID, "nvmlDeviceGetUUID"},
		{&l.deviceGetUtilizationRates, "nvmlDeviceGetUtilizationRates"}, {&l.deviceGetMemoryInfo, "nvmlDeviceGetMemoryInfo"},
		{&l.deviceGetPowerUsage, "nvmlDeviceGetPowerUsage"}, {&l.deviceGetClockInfo, "nvmlDeviceGetClockInfo"},
		{&l.deviceGetTemperature, "nvmlDeviceGetTemperature"}, {&l.deviceGetTotalEnergyConsumption, "nvmlDeviceGetTotalEnergyConsumption"},
	} {
		sym, err := purego.Dlsym(h, b.name)
		if err != nil {
			_ = purego.Dlclose(h)
			return nil, fmt.Errorf("%s is not NVML: it has no %s", library, b.name)
		}
		purego.RegisterFunc(b.fptr, sym)
	}
	return l, nil
}
