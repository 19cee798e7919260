// Package numfmt is the one way servebench writes numbers for people: the
// text report, the HTML report, matcher failure messages and the command's
// tables all format through it, so a value reads the same everywhere.
//
// The conventions:
//
//   - An undefined value (a nil pointer, NaN or an infinity) reads "n/a"
//     (Undefined), never "-" (which reads as a minus sign) and never 0.
//   - A percentage has one decimal and no space before the sign: "91.8%".
//   - A confidence level drops trailing zeros: "95%", "99.9%".
//   - Milliseconds, seconds and rates have at most three decimals (the
//     records' microsecond resolution), trailing zeros dropped: "240",
//     "1500.25", "0.001"; a value that rounds to zero is "0", never "-0".
package numfmt

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// Undefined is how an undefined value reads.
const Undefined = "n/a"

// defined reports whether v is a number that can be shown.
func defined(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// noNegativeZero turns "-0" (a tiny negative value rounded) into "0".
func noNegativeZero(s string) string {
	if strings.Trim(s, "-0.") == "" {
		return strings.TrimPrefix(s, "-")
	}
	return s
}

// Compact writes v with at most three decimals, trailing zeros dropped:
// 240, 1500.25, 0.001. It is the format of milliseconds, seconds and rates.
func Compact(v float64) string {
	if !defined(v) {
		return Undefined
	}
	s := strconv.FormatFloat(v, 'f', 3, 64)
	s = strings.TrimRight(s, "0")
	return noNegativeZero(strings.TrimSuffix(s, "."))
}

// OptCompact is Compact of *v, Undefined when v is nil.
func OptCompact(v *float64) string {
	if v == nil {
		return Undefined
	}
	return Compact(*v)
}

// MS writes milliseconds with their unit: "240 ms", "n/a" when undefined.
func MS(v float64) string {
	if !defined(v) {
		return Undefined
	}
	return Compact(v) + " ms"
}

// OptMS is MS of *v, Undefined when v is nil.
func OptMS(v *float64) string {
	if v == nil {
		return Undefined
	}
	return MS(*v)
}

// DurationMS writes a duration in milliseconds with the unit: 1.5s is
// "1500 ms".
func DurationMS(d time.Duration) string {
	return MS(float64(d) / float64(time.Millisecond))
}

// Fixed writes v with exactly decimals decimals: Fixed(0.9, 3) is "0.900".
func Fixed(v float64, decimals int) string {
	if !defined(v) {
		return Undefined
	}
	return noNegativeZero(strconv.FormatFloat(v, 'f', decimals, 64))
}

// OptFixed is Fixed of *v, Undefined when v is nil.
func OptFixed(v *float64, decimals int) string {
	if v == nil {
		return Undefined
	}
	return Fixed(*v, decimals)
}

// Percent writes a fraction as a percentage with one decimal: 0.918 is
// "91.8%".
func Percent(fraction float64) string {
	if !defined(fraction) {
		return Undefined
	}
	return Fixed(fraction*100, 1) + "%"
}

// OptPercent is Percent of *fraction, Undefined when fraction is nil.
func OptPercent(fraction *float64) string {
	if fraction == nil {
		return Undefined
	}
	return Percent(*fraction)
}

// Level writes a confidence level given as a fraction, trailing zeros
// dropped: 0.95 is "95%", 0.999 is "99.9%".
func Level(fraction float64) string {
	if !defined(fraction) {
		return Undefined
	}
	return strconv.FormatFloat(math.Round(fraction*1e6)/1e4, 'f', -1, 64) + "%"
}

// Confidence writes a measured confidence given as a fraction, as a
// percentage to two significant digits of its distance to the nearer of
// 0 % and 100 %, so that neither end rounds away: 0.0066663 is "0.67%",
// 0.676822 is "68%", 0.999412 is "99.941%", 0.95 is "95%".
func Confidence(fraction float64) string {
	if !defined(fraction) {
		return Undefined
	}
	pct := 100 * fraction
	distance := min(pct, 100-pct)
	if distance <= 0 {
		return strconv.FormatFloat(math.Round(pct), 'f', -1, 64) + "%"
	}
	decimals := max(0, 1-int(math.Floor(math.Log10(distance))))
	scale := math.Pow10(decimals)
	return strconv.FormatFloat(math.Round(pct*scale)/scale, 'f', -1, 64) + "%"
}

// Shortest writes v in the fewest digits that read back as v, as %g does.
func Shortest(v float64) string {
	if !defined(v) {
		return Undefined
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Sig6 writes v to six significant digits, as %g does: 12.3456789 is
// "12.3457".
func Sig6(v float64) string {
	if !defined(v) {
		return Undefined
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// Or returns s, or Undefined when s is empty.
func Or(s string) string {
	if s == "" {
		return Undefined
	}
	return s
}

// Count writes n followed by the noun's singular form when n is 1 and its
// plural otherwise: Count(1, "round", "rounds") is "1 round".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
