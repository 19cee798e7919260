package render

import "github.com/servebench/servebench/servebench/report"

// gpuQuantity names one quantity of a GPU, its unit and where to find it.
type gpuQuantity struct {
	name, unit string
	decimals   int
	stat       func(*report.GPUStats) report.GPUStat
	at         func(*report.GPUPoint) *float64
}

// gpuQuantities lists the quantities in the order the page shows them.
var gpuQuantities = []gpuQuantity{
	{"utilisation", "%", 0, func(s *report.GPUStats) report.GPUStat { return s.UtilizationPercent }, func(p *report.GPUPoint) *float64 { return p.UtilizationPercent }},
	{"memory used", "MiB", 0, func(s *report.GPUStats) report.GPUStat { return s.MemoryUsedMiB }, func(p *report.GPUPoint) *float64 { return p.MemoryUsedMiB }},
	{"power", "W", 1, func(s *report.GPUStats) report.GPUStat { return s.PowerW }, func(p *report.GPUPoint) *float64 { return p.PowerW }},
	{"SM clock", "MHz", 0, func(s *report.GPUStats) report.GPUStat { return s.SMClockMHz }, func(p *report.GPUPoint) *float64 { return p.SMClockMHz }},
	{"temperature", "°C", 0, func(s *report.GPUStats) report.GPUStat { return s.TemperatureC }, func(p *report.GPUPoint) *float64 { return p.TemperatureC }},
}
