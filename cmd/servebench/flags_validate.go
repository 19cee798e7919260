package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"time"
)

// parseCommandLine parses a command's flags (parseFlags). It reports done
// with the exit code when the command must stop here: 0 after -h or
// --help, 1 after a bad or refused flag or, for a command that takes none,
// a positional argument.
func parseCommandLine(fs *flag.FlagSet, args []string, stderr io.Writer, refused ...refusedFlag) (code int, done bool) {
	if err := parseFlags(fs, args, refused...); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, true
		}
		return 1, true
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q (this command takes only flags)\n", fs.Name(), fs.Arg(0))
		return 1, true
	}
	return 0, false
}

// setFlags returns the names of the flags given on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// checkFloat refuses NaN, infinities and values outside [lo, hi] (either
// bound may be infinite to leave that side open).
func checkFloat(name string, v, lo, hi float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < lo || v > hi {
		return fmt.Errorf("--%s: want a finite number in %s, got %v", name, rangeText(lo, hi), v)
	}
	return nil
}

// checkPositive refuses NaN, infinities and values that are not above 0.
func checkPositive(name string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return fmt.Errorf("--%s: want a positive finite number, got %v", name, v)
	}
	return nil
}

// checkFraction refuses a value outside [0, 1].
func checkFraction(name string, v float64) error {
	if !(v >= 0 && v <= 1) {
		return fmt.Errorf("--%s: want a fraction in [0, 1], got %v", name, v)
	}
	return nil
}

// checkNonNegativeInt refuses a negative count.
func checkNonNegativeInt(name string, v int) error {
	if v < 0 {
		return fmt.Errorf("--%s: must not be negative, got %d", name, v)
	}
	return nil
}

// checkNonNegativeDuration refuses a negative duration.
func checkNonNegativeDuration(name string, d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("--%s: must not be negative, got %v", name, d)
	}
	return nil
}

func rangeText(lo, hi float64) string {
	switch {
	case math.IsInf(hi, 1):
		return fmt.Sprintf("[%v, ∞)", lo)
	default:
		return fmt.Sprintf("[%v, %v]", lo, hi)
	}
}

// notSetAttainment is --require-attainment's value when it is not given.
const notSetAttainment = -1

// validateNumbers checks every numeric run flag against its range. set
// names the flags given on the command line.
func (f *runFlags) validateNumbers(set map[string]bool) error {
	checks := []error{
		checkFloat("rate", f.rate, 0, math.Inf(1)),
		checkPositive("burstiness", f.burstiness),
		checkPositive("time-scale", f.timeScale),
		checkNonNegativeInt("users", f.users.n),
		checkNonNegativeInt("count", f.count),
		checkNonNegativeInt("max-concurrency", f.maxConcurrency),
		checkNonNegativeInt("warmup", f.warmup),
		checkNonNegativeDuration("think-time", f.thinkTime),
		checkNonNegativeDuration("duration", f.duration),
		checkNonNegativeDuration("timeout", f.timeout),
		checkNonNegativeDuration("first-token-timeout", f.firstTokenTimeout),
		checkNonNegativeDuration("idle-timeout", f.idleTimeout),
		checkNonNegativeDuration("schedule-lag-tolerance", f.lagTolerance),
		checkNonNegativeDuration("ttft-slo", f.ttftSLO),
		checkNonNegativeDuration("tpot-slo", f.tpotSLO),
		checkNonNegativeDuration("e2e-slo", f.e2eSLO),
	}
	if f.burstSize < 1 {
		checks = append(checks, fmt.Errorf("--burst-size: want at least 1, got %d", f.burstSize))
	}
	if set["require-attainment"] && f.requireAttainment != notSetAttainment {
		checks = append(checks, checkFraction("require-attainment", f.requireAttainment))
	}
	if f.count > 0 && f.duration > 0 {
		checks = append(checks, errors.New("--count and --duration: give one, not both"))
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	return nil
}

// checkSweepNumbers checks the sweep's own numeric flags.
func checkSweepNumbers(minAttainment, confidence float64, repeat int) error {
	if err := checkFraction("min-attainment", minAttainment); err != nil {
		return err
	}
	if !(confidence > 0 && confidence < 1) {
		return fmt.Errorf("--confidence: want a value in (0, 1), got %v", confidence)
	}
	if repeat < 1 {
		return fmt.Errorf("--repeat: want at least 1, got %d", repeat)
	}
	return nil
}

// checkDemoFlags checks the demo's numeric flags and its --report.
func checkDemoFlags(window, ttft, tpot time.Duration, attainment, timeScale float64, form string) error {
	if window <= 0 {
		return fmt.Errorf("--duration: want a positive duration, got %v", window)
	}
	if err := checkNonNegativeDuration("ttft-slo", ttft); err != nil {
		return err
	}
	if err := checkNonNegativeDuration("tpot-slo", tpot); err != nil {
		return err
	}
	if err := checkFraction("attainment", attainment); err != nil {
		return err
	}
	if err := checkReportForm(form); err != nil {
		return err
	}
	return checkPositive("time-scale", timeScale)
}

// checkAutoRateFlags checks the flags of --rates auto by their names
// before anything is sent (the sweep checks them again as a plan).
func checkAutoRateFlags(start, factor, maxRPS, resolution float64) error {
	if err := checkPositive("auto-start", start); err != nil {
		return err
	}
	if !(factor > 1) || math.IsInf(factor, 0) {
		return fmt.Errorf("--auto-factor: want a finite number above 1, got %v", factor)
	}
	if err := checkFloat("auto-max", maxRPS, start, math.Inf(1)); err != nil {
		return err
	}
	return checkFloat("resolution", resolution, 0, math.Inf(1))
}

// isHelpArg reports whether a command's first argument asks for help.
func isHelpArg(args []string) bool {
	return len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help")
}

// parseFailureCode is the exit code after fs.Parse failed: 0 when -h
// asked for the flags, else 1.
func parseFailureCode(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 1
}
