package jsonscan

// AppendFloats reads a JSON array of numbers and appends them to dst, as
// Array with Float for each element would, in one loop: the plain numbers
// of a runner's records (at most 15 digits, no exponent, no space around
// them) are read in place, and anything else goes through Float and the
// space-skipping reads, so that the accepted text and the values are the
// same.
func (s *Scanner) AppendFloats(dst []float64) ([]float64, bool) {
	if !s.Byte('[') {
		return dst, false
	}
	if s.Byte(']') {
		return dst, true
	}
	for {
		v, next, ok := plainDecimal(s.b, s.i)
		if ok {
			s.i = next
		} else if v, ok = s.Float(); !ok {
			return dst, false
		}
		dst = append(dst, v)
		if closed, ok := s.arraySeparator(); closed || !ok {
			return dst, ok
		}
	}
}

// AppendInts reads a JSON array of integers and appends them to dst, as
// Array with Int for each element would, in one loop (single digits, the
// token counts of one-token events, are read in place).
func (s *Scanner) AppendInts(dst []int) ([]int, bool) {
	if !s.Byte('[') {
		return dst, false
	}
	if s.Byte(']') {
		return dst, true
	}
	b := s.b
	for {
		// A lone digit: no sign, no second digit (a leading zero would not
		// be followed by one anyway), no fraction or exponent after it.
		if i := s.i; i+1 < len(b) && b[i] >= '0' && b[i] <= '9' && (b[i+1] == ',' || b[i+1] == ']') {
			dst = append(dst, int(b[i]-'0'))
			s.i = i + 1
		} else if v, ok := s.Int(); ok {
			dst = append(dst, v)
		} else {
			return dst, false
		}
		if closed, ok := s.arraySeparator(); closed || !ok {
			return dst, ok
		}
	}
}

// arraySeparator reads what follows an array element: a comma (more
// elements follow) or the closing bracket (closed); ok is false for
// anything else.
func (s *Scanner) arraySeparator() (closed, ok bool) {
	if s.i < len(s.b) {
		switch s.b[s.i] {
		case ',':
			s.i++
			return false, true
		case ']':
			s.i++
			return true, true
		}
	}
	if s.Byte(',') {
		return false, true
	}
	closed = s.Byte(']')
	return closed, closed
}

// plainDecimal reads the number at b[i:] when it is plain: an optional
// minus, digits without a leading zero (or a lone zero), an optional
// fraction, at most 15 digits in all and no exponent. It returns the value
// Number's short path gives (an exact integer divided by an exact power of
// ten: correctly rounded) and the index after the number; ok is false for
// any other text, which the caller reads through Float.
func plainDecimal(b []byte, at int) (v float64, next int, ok bool) {
	if at < 0 || at >= len(b) {
		return 0, 0, false
	}
	p := b[at:] // indexed from 0, so that the reads need no bounds checks
	i := 0
	neg := p[0] == '-'
	if neg {
		i++
	}
	var mant uint64
	start := i
	if i < len(p) && p[i] == '0' {
		i++
	} else {
		for ; i < len(p); i++ {
			d := p[i] - '0'
			if d > 9 {
				break
			}
			mant = mant*10 + uint64(d)
		}
		if i == start {
			return 0, 0, false
		}
	}
	digits, frac := i-start, 0
	if i < len(p) && p[i] == '.' {
		i++
		d0 := i
		for ; i < len(p); i++ {
			d := p[i] - '0'
			if d > 9 {
				break
			}
			mant = mant*10 + uint64(d)
		}
		frac = i - d0
		if frac == 0 {
			return 0, 0, false
		}
		digits += frac
	}
	if digits > 15 || (i < len(p) && (p[i] == 'e' || p[i] == 'E')) {
		return 0, 0, false
	}
	v = float64(mant)
	if frac > 0 {
		v /= pow10[frac&15]
	}
	if neg {
		v = -v
	}
	return v, at + i, true
}

// Literal consumes lit when the text at the scanner's position starts
// with it, byte for byte (no space is skipped).
func (s *Scanner) Literal(lit string) bool {
	if len(s.b)-s.i >= len(lit) && string(s.b[s.i:s.i+len(lit)]) == lit {
		s.i += len(lit)
		return true
	}
	return false
}
