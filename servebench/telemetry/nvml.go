package telemetry

import (
	"context"
	"fmt"
	"time"
)

// DefaultNVMLLibrary is the NVML library Open loads: the driver's soname,
// found by the dynamic loader's search path.
const DefaultNVMLLibrary = "libnvidia-ml.so.1"

// NVML return codes used here (nvml.h).
const (
	nvmlSuccess        = 0
	nvmlNotSupported   = 3
	nvmlClockSM        = 1 // NVML_CLOCK_SM
	nvmlTemperatureGPU = 0 // NVML_TEMPERATURE_GPU
)

// NVML reads the GPUs through the NVIDIA Management Library, loaded at run
// time. The energy comes from each GPU's total-energy counter
// (nvmlDeviceGetTotalEnergyConsumption, millijoules since the driver
// loaded); a GPU without one (before Volta) falls back to integrated power.
type NVML struct {
	lib     *nvmlLib
	devices []nvmlDevice
}

// nvmlDevice is one GPU's handle and identity.
type nvmlDevice struct {
	handle     uintptr
	index      int
	uuid, name string
}

// OpenNVML loads library (DefaultNVMLLibrary when empty), initialises NVML
// and lists the GPUs. Without the library the error says
// "nvml: libnvidia-ml.so.1 not found".
func OpenNVML(library string) (*NVML, error) {
	if library == "" {
		library = DefaultNVMLLibrary
	}
	lib, err := loadNVML(library)
	if err != nil {
		return nil, fmt.Errorf("nvml: %w", err)
	}
	if rc := lib.init(); rc != nvmlSuccess {
		return nil, fmt.Errorf("nvml: nvmlInit_v2: %s", lib.errorString(rc))
	}
	n := &NVML{lib: lib}
	var count uint32
	if rc := lib.deviceGetCount(&count); rc != nvmlSuccess {
		lib.shutdown()
		return nil, fmt.Errorf("nvml: nvmlDeviceGetCount_v2: %s", lib.errorString(rc))
	}
	if count == 0 {
		lib.shutdown()
		return nil, fmt.Errorf("nvml: %s lists no GPU", library)
	}
	for i := range count {
		var h uintptr
		if rc := lib.deviceGetHandleByIndex(i, &h); rc != nvmlSuccess {
			lib.shutdown()
			return nil, fmt.Errorf("nvml: nvmlDeviceGetHandleByIndex_v2(%d): %s", i, lib.errorString(rc))
		}
		d := nvmlDevice{handle: h, index: int(i)}
		buf := make([]byte, 96)
		if lib.deviceGetName(h, &buf[0], uint32(len(buf))) == nvmlSuccess {
			d.name = cString(buf)
		}
		if lib.deviceGetUUID(h, &buf[0], uint32(len(buf))) == nvmlSuccess {
			d.uuid = cString(buf)
		}
		n.devices = append(n.devices, d)
	}
	return n, nil
}

// Name is "nvml".
func (n *NVML) Name() string { return "nvml" }

// GPUs is the number of GPUs NVML listed.
func (n *NVML) GPUs() int { return len(n.devices) }

// Close shuts NVML down.
func (n *NVML) Close() error {
	if rc := n.lib.shutdown(); rc != nvmlSuccess {
		return fmt.Errorf("nvml: nvmlShutdown: %s", n.lib.errorString(rc))
	}
	return nil
}

// Stream reads every GPU once per interval.
func (n *NVML) Stream(ctx context.Context, interval time.Duration, emit func(Reading), warn func(error)) error {
	return pollLoop(ctx, interval, n.read, emit, warn)
}

// read reads every GPU once. A quantity the GPU does not support is left
// nil; any other failure is returned.
func (n *NVML) read(context.Context) ([]Reading, error) {
	out := make([]Reading, 0, len(n.devices))
	for _, d := range n.devices {
		r := Reading{At: time.Now(), GPU: d.index, UUID: d.uuid, Name: d.name}
		check := func(call string, rc int32, set func()) error {
			switch rc {
			case nvmlSuccess:
				set()
			case nvmlNotSupported:
			default:
				return fmt.Errorf("nvml: GPU %d: %s: %s", d.index, call, n.lib.errorString(rc))
			}
			return nil
		}
		var util nvmlUtilization
		var mem nvmlMemory
		var power, clock, temp uint32
		var energy uint64
		for _, err := range []error{
			check("nvmlDeviceGetUtilizationRates", n.lib.deviceGetUtilizationRates(d.handle, &util), func() { r.UtilizationPercent = ptr(float64(util.GPU)) }),
			check("nvmlDeviceGetMemoryInfo", n.lib.deviceGetMemoryInfo(d.handle, &mem), func() { r.MemoryUsedMiB = ptr(float64(mem.Used) / (1 << 20)) }),
			check("nvmlDeviceGetPowerUsage", n.lib.deviceGetPowerUsage(d.handle, &power), func() { r.PowerW = ptr(float64(power) / 1000) }),
			check("nvmlDeviceGetClockInfo", n.lib.deviceGetClockInfo(d.handle, nvmlClockSM, &clock), func() { r.SMClockMHz = ptr(float64(clock)) }),
			check("nvmlDeviceGetTemperature", n.lib.deviceGetTemperature(d.handle, nvmlTemperatureGPU, &temp), func() { r.TemperatureC = ptr(float64(temp)) }),
			check("nvmlDeviceGetTotalEnergyConsumption", n.lib.deviceGetTotalEnergyConsumption(d.handle, &energy), func() { r.EnergyMJ = ptr(float64(energy)) }),
		} {
			if err != nil {
				return nil, err
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// nvmlUtilization is nvmlUtilization_t.
type nvmlUtilization struct {
	GPU, Memory uint32
}

// nvmlMemory is nvmlMemory_t, in bytes.
type nvmlMemory struct {
	Total, Free, Used uint64
}

// cString is the NUL-terminated string at the start of b.
func cString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}
