package llmdreport

import (
	"slices"
	"sort"
)

// lengthCounts is a population of token counts held as the number of
// times each distinct count occurs: its memory follows the distinct
// lengths (at most the largest length), not the number of requests.
// Every statistic drawn from it is the one the sorted sample would give,
// bit for bit: the sums run over the values in ascending order, each
// value as many times as it occurs.
type lengthCounts struct {
	freq map[int]uint64
	n    int
	// values and upTo are filled by sorted: the distinct values in
	// ascending order and the running count through each.
	values []int
	upTo   []int
}

// add counts one length.
func (c *lengthCounts) add(v int) {
	if c.freq == nil {
		c.freq = map[int]uint64{}
	}
	c.freq[v]++
	c.n++
	c.values = nil
}

// countsOf counts a sample.
func countsOf(xs ...int) *lengthCounts {
	c := &lengthCounts{}
	for _, x := range xs {
		c.add(x)
	}
	return c
}

// len is the number of lengths counted.
func (c *lengthCounts) len() int { return c.n }

// sorted orders the distinct values once.
func (c *lengthCounts) sorted() {
	if c.values != nil || c.n == 0 {
		return
	}
	c.values = make([]int, 0, len(c.freq))
	for v := range c.freq {
		c.values = append(c.values, v)
	}
	slices.Sort(c.values)
	c.upTo = make([]int, len(c.values))
	total := 0
	for k, v := range c.values {
		total += int(c.freq[v])
		c.upTo[k] = total
	}
}

// at is the value of a 1-based rank in the sorted sample.
func (c *lengthCounts) at(rank int) float64 {
	c.sorted()
	k := sort.SearchInts(c.upTo, rank)
	return float64(c.values[k])
}

// each calls f with every value in ascending order, as often as it occurs.
func (c *lengthCounts) each(f func(x float64)) {
	c.sorted()
	for _, v := range c.values {
		x := float64(v)
		for range c.freq[v] {
			f(x)
		}
	}
}

// sum adds the sample up.
func (c *lengthCounts) sum() float64 {
	var s float64
	c.each(func(x float64) { s += x })
	return s
}
