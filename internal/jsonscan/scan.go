// Package jsonscan reads JSON values from a byte slice without
// allocating: the fast paths of the outcome and schedule decoders. A value
// it does not take is reported as not read, and the caller falls back to
// encoding/json.
package jsonscan

import (
	"strconv"
	"unsafe"
)

// Scanner reads JSON values from a byte slice.
type Scanner struct {
	b []byte
	i int
}

// New reads b from its first byte.
func New(b []byte) *Scanner { return &Scanner{b: b} }

// AtEnd reports whether every byte was read.
func (s *Scanner) AtEnd() bool { return s.i == len(s.b) }

// SkipSpace skips JSON whitespace.
func (s *Scanner) SkipSpace() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// Peek returns the next byte after any whitespace, or 0 at the end.
func (s *Scanner) Peek() byte {
	s.SkipSpace()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// Byte consumes c after any whitespace.
func (s *Scanner) Byte(c byte) bool {
	if s.Peek() == c {
		s.i++
		return true
	}
	return false
}

// Str reads a string of printable ASCII without escapes; the result
// aliases the line.
func (s *Scanner) Str() ([]byte, bool) {
	if !s.Byte('"') {
		return nil, false
	}
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		if c == '"' {
			s.i++
			return s.b[start : s.i-1], true
		}
		if c < 0x20 || c >= 0x7f || c == '\\' {
			return nil, false
		}
		s.i++
	}
	return nil, false
}

// Text reads a string as Str does and copies it.
func (s *Scanner) Text() (string, bool) {
	b, ok := s.Str()
	return string(b), ok
}

// Null consumes a null literal.
func (s *Scanner) Null() bool {
	if s.Peek() == 'n' && len(s.b)-s.i >= 4 && string(s.b[s.i:s.i+4]) == "null" {
		s.i += 4
		return true
	}
	return false
}

// Bool reads true or false; ok is false for anything else.
func (s *Scanner) Bool() (bool, bool) {
	s.SkipSpace()
	rest := s.b[s.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		s.i += 4
		return true, true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		s.i += 5
		return false, true
	}
	return false, false
}

// Number reads a number in JSON's grammar; integral says it had no
// fraction or exponent. short holds its value when it is a plain decimal
// of at most 15 digits, converted as strconv does on its own exact path
// (an integer below 2^53 divided by an exactly representable power of
// ten: one correctly rounded operation, so the same float64).
//
// Its cyclomatic complexity is above the project's limit of 25 on purpose:
// its branches follow JSON's number grammar one production at a time
// (sign, integer part, fraction, exponent) in a single pass over the bytes,
// and it runs for every time and count of every record. Helpers per part
// would have to pass the position, mantissa and digit counts back and
// forth, and the grammar would no longer read top to bottom.
func (s *Scanner) Number() (num []byte, integral bool, short float64, isShort, ok bool) {
	s.SkipSpace()
	b, i := s.b, s.i
	start := i
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	var mant uint64
	digits := 0
	switch {
	case i < len(b) && b[i] == '0':
		i++
		digits = 1
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			mant = mant*10 + uint64(b[i]-'0')
			digits++
			i++
		}
	default:
		return nil, false, 0, false, false
	}
	integral = true
	frac := 0
	if i < len(b) && b[i] == '.' {
		integral = false
		i++
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			mant = mant*10 + uint64(b[i]-'0')
			digits++
			i++
		}
		if i == d {
			return nil, false, 0, false, false
		}
		frac = i - d
	}
	isShort = digits <= 15
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		integral, isShort = false, false
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return nil, false, 0, false, false
		}
	}
	s.i = i
	if isShort {
		short = float64(mant)
		if frac > 0 {
			short /= pow10[frac]
		}
		if neg {
			short = -short
		}
	}
	return b[start:i], integral, short, isShort, true
}

// Float reads a finite number; anything but a short decimal goes to
// ParseFloat, without a copy of the digits.
func (s *Scanner) Float() (float64, bool) {
	num, _, short, isShort, ok := s.Number()
	if !ok {
		return 0, false
	}
	if isShort {
		return short, true
	}
	v, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(num), len(num)), 64)
	return v, err == nil
}

// pow10 holds the powers of ten a float64 represents exactly.
var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// Int reads a number without fraction or exponent that fits an int. One of
// at most 15 digits is Number's short value, exact below 2^53; a longer one
// goes to Atoi.
func (s *Scanner) Int() (int, bool) {
	num, integral, short, isShort, ok := s.Number()
	if !ok || !integral {
		return 0, false
	}
	if isShort {
		return int(short), true
	}
	v, err := strconv.Atoi(unsafe.String(unsafe.SliceData(num), len(num)))
	return v, err == nil
}

// OptFloat reads null (nil) or a number.
func (s *Scanner) OptFloat() (*float64, bool) {
	if s.Null() {
		return nil, true
	}
	v, ok := s.Float()
	return &v, ok
}

// OptInt reads null (nil) or an integer.
func (s *Scanner) OptInt() (*int, bool) {
	if s.Null() {
		return nil, true
	}
	v, ok := s.Int()
	return &v, ok
}

// Array reads [elem, ...], calling elem for each element.
func (s *Scanner) Array(elem func() bool) bool {
	if !s.Byte('[') {
		return false
	}
	if s.Byte(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if s.Byte(',') {
			continue
		}
		return s.Byte(']')
	}
}
