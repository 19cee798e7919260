package score

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestExactSumIsOrderFree checks exactSum against math/big on sums whose
// naive float64 total depends on the order of the additions.
func TestExactSumIsOrderFree(t *testing.T) {
	cases := [][]float64{
		{1e100, 1, -1e100},       // naive: 0, exact: 1
		{0.1, 0.2, 0.3},          // naive: 0.6000000000000001
		{1, 1e-16, 1e-16, 1e-16}, // naive: 1, exact: 1.0000000000000002 (3e-16 is above half an ulp)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		xs := make([]float64, 200)
		for i := range xs {
			xs[i] = float64(rng.IntN(2_000_000)) / 1000 * float64(1+rng.IntN(3))
			if rng.IntN(7) == 0 {
				xs[i] /= 3
			}
		}
		cases = append(cases, xs)
	}
	for _, xs := range cases {
		want := new(big.Float).SetPrec(2000)
		for _, x := range xs {
			want.Add(want, new(big.Float).SetFloat64(x))
		}
		w, _ := want.Float64()
		var fwd, rev exactSum
		for i := range xs {
			fwd.add(xs[i])
			rev.add(xs[len(xs)-1-i])
		}
		if fwd.value() != w || rev.value() != w {
			t.Fatalf("sum of %v: forward %v, reverse %v, want %v", xs[:min(4, len(xs))], fwd.value(), rev.value(), w)
		}
	}
	var s exactSum
	s.add(1e100)
	s.add(1)
	s.add(-1e100)
	if s.value() != 1 {
		t.Fatalf("1e100 + 1 - 1e100 = %v, want 1", s.value())
	}
}

func TestExactSumAddProduct(t *testing.T) {
	var a, b exactSum
	for range 7 {
		a.add(0.1)
	}
	b.addProduct(0.1, 7)
	if a.value() != b.value() {
		t.Fatalf("7 × 0.1: %v by addition, %v by product", a.value(), b.value())
	}
	want, _ := new(big.Float).SetPrec(200).Mul(new(big.Float).SetFloat64(0.1), big.NewFloat(7)).Float64()
	if b.value() != want {
		t.Fatalf("7 × 0.1 = %v, want %v", b.value(), want)
	}
}
