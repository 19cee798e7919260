package jsonscan

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestExactDecimalMatchesParseFloat compares the short-decimal conversion
// with strconv.ParseFloat on random decimals of up to 15 digits.
func TestExactDecimalMatchesParseFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for range 200000 {
		digits := 1 + rng.IntN(15)
		var b []byte
		if rng.IntN(5) == 0 {
			b = append(b, '-')
		}
		for j := range digits {
			c := byte('0' + rng.IntN(10))
			if j == 0 && digits > 1 && c == '0' {
				c = '1'
			}
			b = append(b, c)
		}
		if point := rng.IntN(digits + 1); point > 0 && point < digits {
			start := len(b) - digits
			b = append(b[:start+point], append([]byte{'.'}, b[start+point:]...)...)
		}
		sc := New(b)
		got, ok := sc.Float()
		_, _, _, short, _ := New(b).Number()
		want, err := strconv.ParseFloat(string(b), 64)
		if !ok || !short || err != nil || got != want || math.Signbit(got) != math.Signbit(want) {
			t.Fatalf("%s: short path %v (%v, %v), ParseFloat %v (%v)", b, got, ok, short, want, err)
		}
	}
	if _, _, _, short, _ := New([]byte("1234567890123456")).Number(); short {
		t.Fatal("16 digits taken by the short path")
	}
}

// Int reads short integers from the scanned digits and longer ones through
// Atoi: 15 digits are short, 19 are not; a fraction is not an int.
func TestIntShortAndLong(t *testing.T) {
	for text, want := range map[string]int{"123": 123, "-45": -45, "0": 0, "-0": 0, "999999999999999": 999999999999999,
		"1234567890123456789": 1234567890123456789, "-1234567890123456789": -1234567890123456789} {
		if got, ok := New([]byte(text)).Int(); !ok || got != want {
			t.Errorf("Int(%s) = %d, %v; want %d", text, got, ok, want)
		}
	}
	for _, text := range []string{"12.5", "1e3", "99999999999999999999", "-"} {
		if got, ok := New([]byte(text)).Int(); ok {
			t.Errorf("Int(%s) = %d, want not read", text, got)
		}
	}
}
