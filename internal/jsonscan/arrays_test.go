package jsonscan

import (
	"math"
	"reflect"
	"slices"
	"testing"
)

// arrayTexts are arrays of numbers and near misses: plain numbers, space,
// exponents, long mantissas, a leading zero, a sign, a missing bracket.
var arrayTexts = []string{
	`[]`, `[ ]`, `[1]`, `[1,2,3]`, `[186.148,195.714,1481.272]`, `[ 1.5 , 2e1,-0,0.000001]`, `[0,0.5,-12.25]`,
	`[1234567890.12345]`, `[1234567890.123456]`, `[9007199254740993]`, `[1E2,3e-1]`, `[01]`, `[1.]`, `[.5]`, `[-]`,
	`[1,]`, `[1 2]`, `[1,2`, `1,2]`, `[null]`, `[1]x`, `[12,3,0,7]`, `[-1,1]`, `[ 1 ,12,0]`, `[1.5]`,
}

// arrayByElements reads an array as Array with Float does.
func arrayByElements(text string) ([]float64, int, bool) {
	s := New([]byte(text))
	var got []float64
	ok := s.Array(func() bool {
		v, ok := s.Float()
		got = append(got, v)
		return ok
	})
	return got, s.i, ok
}

// intsByElements reads an array as Array with Int does.
func intsByElements(text string) ([]int, int, bool) {
	s := New([]byte(text))
	var got []int
	ok := s.Array(func() bool {
		v, ok := s.Int()
		got = append(got, v)
		return ok
	})
	return got, s.i, ok
}

// AppendFloats accepts what Array with Float accepts, with the same
// values (signs of zero included) and the same end position.
func TestAppendFloatsMatchesArray(t *testing.T) {
	for _, text := range arrayTexts {
		checkAppendFloats(t, text)
	}
}

// AppendInts accepts what Array with Int accepts, with the same values.
func TestAppendIntsMatchesArray(t *testing.T) {
	for _, text := range arrayTexts {
		checkAppendInts(t, text)
	}
}

func checkAppendFloats(t *testing.T, text string) {
	t.Helper()
	want, wantAt, wantOK := arrayByElements(text)
	s := New([]byte(text))
	got, ok := s.AppendFloats(nil)
	if ok != wantOK {
		t.Fatalf("%s: AppendFloats ok %v, Array %v", text, ok, wantOK)
	}
	if !ok {
		return
	}
	if s.i != wantAt || len(got) != len(want) {
		t.Fatalf("%s: AppendFloats %v ending at %d, Array %v at %d", text, got, s.i, want, wantAt)
	}
	for i := range got {
		if got[i] != want[i] || math.Signbit(got[i]) != math.Signbit(want[i]) {
			t.Fatalf("%s: element %d: %v, Array %v", text, i, got[i], want[i])
		}
	}
}

func checkAppendInts(t *testing.T, text string) {
	t.Helper()
	want, wantAt, wantOK := intsByElements(text)
	s := New([]byte(text))
	got, ok := s.AppendInts(nil)
	if ok != wantOK {
		t.Fatalf("%s: AppendInts ok %v, Array %v", text, ok, wantOK)
	}
	if ok && (s.i != wantAt || !slices.Equal(got, want)) {
		t.Fatalf("%s: AppendInts %v ending at %d, Array %v at %d", text, got, s.i, want, wantAt)
	}
}

// Values read by hand: the plain path divides an exact mantissa by an
// exact power of ten.
func TestAppendFloatsValues(t *testing.T) {
	got, ok := New([]byte(`[186.148,-0.5,7,1234567890.12345]`)).AppendFloats([]float64{1})
	want := []float64{1, 186.148, -0.5, 7, 1234567890.12345}
	if !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v (%v), want %v", got, ok, want)
	}
	ints, ok := New([]byte(`[1,1,2,10,-3]`)).AppendInts(nil)
	if !ok || !reflect.DeepEqual(ints, []int{1, 1, 2, 10, -3}) {
		t.Fatalf("got %v (%v)", ints, ok)
	}
}

// Literal takes exactly its bytes, and nothing when they differ.
func TestLiteral(t *testing.T) {
	s := New([]byte(`"id":"a"`))
	if s.Literal(`"ID":`) || s.i != 0 || !s.Literal(`"id":`) || s.i != 5 || s.Literal(`"a"x`) {
		t.Fatalf("Literal at %d", s.i)
	}
}

func FuzzAppendFloats(f *testing.F) {
	for _, text := range arrayTexts {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkAppendFloats(t, text)
		checkAppendInts(t, text)
	})
}
