package servebench

import (
	"strconv"
	"strings"
)

// textMS formats milliseconds compactly: at most three decimals (the
// records' microsecond resolution), trailing zeros dropped.
func textMS(ms float64) string {
	s := strconv.FormatFloat(ms, 'f', 3, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// textOptMS formats an optional millisecond value, "n/a" when undefined.
func textOptMS(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return textMS(*v)
}

// textFixed formats a value with the given decimals, "n/a" when undefined.
func textFixed(v *float64, decimals int) string {
	if v == nil {
		return "n/a"
	}
	return strconv.FormatFloat(*v, 'f', decimals, 64)
}

// textPercent formats a fraction as a percentage with one decimal, "n/a"
// when undefined.
func textPercent(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return strconv.FormatFloat(*v*100, 'f', 1, 64) + "%"
}

// textRate formats a rate in requests per second with at most three
// decimals, trailing zeros dropped.
func textRate(rps float64) string { return textMS(rps) }
