// Package telemetry samples NVIDIA GPUs over a benchmark's measurement and
// turns the readings into report.GPUTelemetry: per GPU the mean and
// max of utilisation, memory used, power, SM clock and temperature, a
// bounded timeline, and the energy over the window, from which the report
// derives joules per qualified request and per output token.
//
// Three sources read the GPUs:
//
//   - NVML, loaded at run time from libnvidia-ml.so.1 through
//     github.com/ebitengine/purego (no C bindings, no NVML headers). Its
//     total-energy counter (nvmlDeviceGetTotalEnergyConsumption,
//     millijoules) gives the energy. NVML is compiled in wherever cgo is
//     (the default where a C compiler is installed; such binaries link libc
//     already), and into a CGO_ENABLED=0 build with -tags nvml, which then
//     links the system's dynamic loader. A plain CGO_ENABLED=0 build stays
//     fully static (the FROM-scratch images rely on it) and reports NVML as
//     unavailable, falling back to nvidia-smi.
//   - nvidia-smi --query-gpu=... --format=csv,noheader,nounits -lms N.
//     nvidia-smi has no energy field, so the energy is power.draw
//     integrated over time with the trapezoid rule, and labelled so.
//   - A DCGM exporter's /metrics, as Kubernetes clusters expose it: its
//     DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter (millijoules) gives the
//     energy.
//
// Open picks the first source that answers: the DCGM exporter when a URL is
// given, else NVML, else nvidia-smi. When none does, the Sampler still runs
// and reports "unavailable: <reason>"; telemetry never fails a run.
//
// The package sits beside servebench, as net/http/httptest sits beside
// net/http: servebench.RunConfig takes any servebench.GPUSampler, and the
// measurement core imports neither purego nor this package.
package telemetry
