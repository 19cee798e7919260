package report

import (
	"math"
	"strings"
)

// The energy methods of GPUTelemetry and GPUStats.
const (
	// EnergyFromCounter is energy read from the GPU's own total-energy
	// counter (NVML's nvmlDeviceGetTotalEnergyConsumption, DCGM's
	// DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION): last reading − first reading.
	EnergyFromCounter = "counter"
	// EnergyFromIntegratedPower is energy integrated from the power
	// readings with the trapezoid rule, where no counter was read.
	EnergyFromIntegratedPower = "integrated_power"
	// EnergyMixed is a total over GPUs whose energies came by both methods.
	EnergyMixed = "mixed"
)

// GPUTelemetrySampled is the Status of telemetry that was sampled.
const GPUTelemetrySampled = "sampled"

// GPUTelemetry is what the GPUs did over the measurement, and what that
// cost per unit of useful work.
type GPUTelemetry struct {
	// Status is "sampled", or "unavailable: <reason>" when no source could
	// be read (the run is reported all the same).
	Status string `json:"status"`
	// Source names what was read: "nvml", "nvidia-smi" or "dcgm".
	Source string `json:"source,omitempty"`
	// SampleIntervalMS is the declared interval between readings.
	SampleIntervalMS float64 `json:"sample_interval_ms"`
	// GPUs has one entry per GPU, by index.
	GPUs []GPUStats `json:"gpus"`
	// EnergyJ is the energy of every GPU over the measurement, in joules;
	// nil when a GPU's energy is unknown (a partial sum would understate
	// it).
	EnergyJ *float64 `json:"energy_j"`
	// EnergyMethod is "counter", "integrated_power" or "mixed".
	EnergyMethod string `json:"energy_method,omitempty"`
	// Qualified is the report's qualified request count, and OutputTokens
	// the sum of n over the cohort's successful requests whose count is
	// known; SuccessesWithoutTokenCount counts those whose count is not.
	Qualified                  int   `json:"qualified"`
	OutputTokens               int64 `json:"output_tokens"`
	SuccessesWithoutTokenCount int   `json:"successes_without_token_count"`
	// JoulesPerQualifiedRequest is EnergyJ / Qualified: the energy of
	// goodput. Nil when either is unknown or zero.
	JoulesPerQualifiedRequest *float64 `json:"joules_per_qualified_request"`
	// JoulesPerOutputToken is EnergyJ / OutputTokens; nil when either is
	// unknown or zero.
	JoulesPerOutputToken *float64 `json:"joules_per_output_token"`
	// Errors says what went wrong while sampling (bounded).
	Errors []string `json:"errors,omitempty"`
}

// GPUStats is one GPU over the measurement.
type GPUStats struct {
	// Index is the GPU's index as the source numbers it; UUID and Name as
	// the source reports them.
	Index int    `json:"index"`
	UUID  string `json:"uuid,omitempty"`
	Name  string `json:"name,omitempty"`
	// Samples counts the readings of this GPU.
	Samples int `json:"samples"`
	// SpanMS is the first and the last reading, in ms since sampling
	// started.
	SpanMS [2]float64 `json:"span_ms"`
	// The readings' mean and max.
	UtilizationPercent GPUStat `json:"utilization_percent"`
	MemoryUsedMiB      GPUStat `json:"memory_used_mib"`
	PowerW             GPUStat `json:"power_w"`
	SMClockMHz         GPUStat `json:"sm_clock_mhz"`
	TemperatureC       GPUStat `json:"temperature_c"`
	// EnergyJ is the GPU's energy over its span, in joules; nil with fewer
	// than two readings. EnergyMethod says how it was obtained.
	EnergyJ      *float64 `json:"energy_j"`
	EnergyMethod string   `json:"energy_method,omitempty"`
	// Timeline holds the readings in order, each point the mean of
	// TimelineStride consecutive readings, so that a long run keeps a
	// bounded number of points.
	Timeline       []GPUPoint `json:"timeline"`
	TimelineStride int        `json:"timeline_stride"`
}

// GPUStat is the mean and the max of one quantity's readings; both nil
// when the source never reported it.
type GPUStat struct {
	Mean *float64 `json:"mean"`
	Max  *float64 `json:"max"`
}

// GPUPoint is one point of a GPU's timeline: the mean of the readings it
// stands for, at their mean time in ms since sampling started.
type GPUPoint struct {
	AtMS               float64  `json:"at_ms"`
	UtilizationPercent *float64 `json:"utilization_percent"`
	MemoryUsedMiB      *float64 `json:"memory_used_mib"`
	PowerW             *float64 `json:"power_w"`
	SMClockMHz         *float64 `json:"sm_clock_mhz"`
	TemperatureC       *float64 `json:"temperature_c"`
}

// Available reports whether the telemetry was sampled.
func (g *GPUTelemetry) Available() bool {
	return g != nil && g.Status == GPUTelemetrySampled
}

// UnavailableReason is why no telemetry was sampled: the text after
// "unavailable: ", or "" when it was sampled.
func (g *GPUTelemetry) UnavailableReason() string {
	if g == nil {
		return "no GPU sampler was configured"
	}
	if g.Available() {
		return ""
	}
	return strings.TrimPrefix(g.Status, "unavailable: ")
}

// AttributeWork sets the work the energy bought: the report's qualified
// requests and the output tokens of its successful requests, and the
// joules per each. It is called again when a run is re-scored, since the
// qualified count depends on the SLO.
func (g *GPUTelemetry) AttributeWork(r *Report) {
	if g == nil || r == nil {
		return
	}
	g.Qualified = r.Qualified
	g.OutputTokens, g.SuccessesWithoutTokenCount = r.OutputTokens, r.OutputTokensUnknown
	g.JoulesPerQualifiedRequest = perUnit(g.EnergyJ, float64(g.Qualified))
	g.JoulesPerOutputToken = perUnit(g.EnergyJ, float64(g.OutputTokens))
}

// perUnit is energy / units, nil when the energy is unknown or there are no
// units.
func perUnit(energyJ *float64, units float64) *float64 {
	if energyJ == nil || !(units > 0) || math.IsNaN(*energyJ) || math.IsInf(*energyJ, 0) {
		return nil
	}
	return new(*energyJ / units)
}
