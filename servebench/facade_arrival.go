package servebench

import (
	"errors"
	"time"

	"github.com/servebench/servebench/servebench/schedule"
)

// Constant returns an open-loop arrival that sends ratePerSecond requests
// per second, evenly spaced. It goes straight into RunConfig.Arrival: a
// rate that is not a positive finite number is reported by Run's
// validation, naming the field, before any request is sent.
func Constant(ratePerSecond float64) schedule.Arrival {
	return declaredArrival(schedule.ArrivalSpec{Process: schedule.ProcessConstant, RateRPS: ratePerSecond})
}

// Poisson returns an open-loop Poisson arrival at ratePerSecond requests
// per second, its exponential gaps drawn from seed: the same seed realizes
// the same schedule. A bad rate is reported by Run, as for Constant.
func Poisson(ratePerSecond float64, seed int64) schedule.Arrival {
	return declaredArrival(schedule.ArrivalSpec{Process: schedule.ProcessPoisson, RateRPS: ratePerSecond, Seed: seed})
}

// Gamma returns an open-loop arrival at ratePerSecond requests per second
// whose gaps are gamma-distributed with the given shape k (coefficient of
// variation 1/sqrt(k): below 1 it is burstier than Poisson, above 1
// smoother), drawn from seed. A bad rate or shape is reported by Run, as
// for Constant.
func Gamma(ratePerSecond, shape float64, seed int64) schedule.Arrival {
	return declaredArrival(schedule.ArrivalSpec{Process: schedule.ProcessGamma, RateRPS: ratePerSecond, Burstiness: shape, Seed: seed})
}

// declaredArrival builds spec's process, or an invalidArrival that keeps
// the reason it cannot be built for Run's validation to report.
func declaredArrival(spec schedule.ArrivalSpec) schedule.Arrival {
	if err := spec.Check(); err != nil {
		// The caller gave the value as an argument, not as the field.
		if fe, ok := errors.AsType[*schedule.ArrivalFieldError](err); ok {
			err = fe.Err
		}
		return invalidArrival{spec: spec, err: err}
	}
	a, err := schedule.NewArrival(spec)
	if err != nil {
		return invalidArrival{spec: spec, err: err}
	}
	return a
}

// invalidArrival is an arrival declared with a bad parameter. Run's
// validation reports err before anything is written; Offsets returns it
// to any other caller.
type invalidArrival struct {
	spec schedule.ArrivalSpec
	err  error
}

func (a invalidArrival) Spec() schedule.ArrivalSpec { return a.spec }

func (a invalidArrival) Offsets(int, time.Duration) ([]time.Duration, time.Duration, error) {
	return nil, 0, a.err
}
