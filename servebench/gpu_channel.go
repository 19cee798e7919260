package servebench

import (
	"context"

	"github.com/servebench/servebench/servebench/report"
)

// gpuChannel is a GPUSampler as a side channel, for the report's
// GPUTelemetry and the energy per unit of work.
type gpuChannel struct {
	sampler GPUSampler

	stopSampling func() *report.GPUTelemetry
	telemetry    *report.GPUTelemetry
}

// Start starts the sampler.
func (c *gpuChannel) Start(ctx context.Context) {
	c.stopSampling = c.sampler.StartGPUSampling(ctx)
}

// Stop ends its readings.
func (c *gpuChannel) Stop(context.Context) { c.telemetry = c.stopSampling() }

// Fill sets the report's GPUTelemetry, with the work its energy bought.
func (c *gpuChannel) Fill(rep *report.Report) {
	c.telemetry.AttributeWork(rep)
	rep.GPUTelemetry = c.telemetry
}
