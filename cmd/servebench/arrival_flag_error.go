package main

import (
	"errors"
	"fmt"

	"github.com/servebench/servebench/servebench/schedule"
)

// arrivalFlags names the flag that sets each ArrivalSpec field.
var arrivalFlags = map[string]string{
	"RateRPS":    "rate",
	"Burstiness": "burstiness",
	"BurstSize":  "burst-size",
}

// arrivalFlagError reports an arrival field the process cannot take
// under the flag that set it ("--rate: poisson rate must be ..., got 0");
// any other error is returned as it is.
func arrivalFlagError(err error) error {
	fe, ok := errors.AsType[*schedule.ArrivalFieldError](err)
	if !ok {
		return err
	}
	name, ok := arrivalFlags[fe.Field]
	if !ok {
		return err
	}
	return fmt.Errorf("--%s: %w", name, fe.Err)
}
