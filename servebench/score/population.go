package score

import (
	"bufio"
	"encoding/binary"
	"io"
	"maps"
	"math"
	"os"
	"slices"
)

// population is one latency population summarized without keeping every
// value in a slice: it holds each distinct value once with its count, and
// selects exact nearest-rank or linear percentiles from those counts.
//
// What it keeps, and why:
//   - Values on the records' 1 µs grid from 0 up to denseLimitUS (about
//     16.8 s) go to counters indexed by microsecond, in pages of
//     densePage counters (4 bytes each) allocated when first touched: the
//     pooled chunk-gap and ITL populations hold about 63 values per
//     64-token request, and counting them costs an array increment rather
//     than a map lookup. Memory follows the span of values, not their
//     number.
//   - Any other value goes to a map of distinct values, up to
//     spillDistinct of them.
//   - Past that, further new values are appended to a temporary file (8
//     bytes each, on disk, not in memory). Selecting a rank then takes two
//     passes over the file: one counts values into 65,536 buckets by their
//     leading bits, the second gathers the distinct values of the bucket
//     that holds the rank.
//
// So memory is bounded by the counter array, the map cap and the largest
// bucket's distinct values, whatever the number of requests; the answer is
// the same value a sort of every sample would give.
type population struct {
	n      int
	sum    exactSum
	max    float64
	min    float64
	dense  [][]uint32 // dense[u/densePage][u%densePage] counts the value u µs
	counts map[float64]uint64
	spill  *populationSpill
	// samples keeps every value when the caller asks for them (the
	// in-memory scorer, so a fresh report answers any percentile).
	samples []float64
	keep    bool
}

// The dense counters' range (values below 2^24 µs, about 16.8 s) and page.
const (
	denseLimitUS = 1 << 24
	densePage    = 1 << 12
)

// spillDistinct caps the distinct values held in the map (a variable so
// that tests can make populations spill early).
var spillDistinct = 1 << 16

// newPopulation makes an empty population; keep says whether to keep the
// raw samples as well.
func newPopulation(keep bool) *population {
	return &population{keep: keep, counts: map[float64]uint64{}}
}

// add counts one value.
func (p *population) add(v float64) {
	if p.n == 0 || v > p.max {
		p.max = v
	}
	if p.n == 0 || v < p.min {
		p.min = v
	}
	p.n++
	if p.keep {
		p.samples = append(p.samples, v)
	}
	if v >= 0 {
		if u := math.Round(v * 1000); u < denseLimitUS && float64(u)/1000 == v {
			page, at := int(u)/densePage, int(u)%densePage
			if p.dense == nil {
				p.dense = make([][]uint32, denseLimitUS/densePage)
			}
			if p.dense[page] == nil {
				p.dense[page] = make([]uint32, densePage)
			}
			if c := &p.dense[page][at]; *c < math.MaxUint32 {
				*c++
				return
			}
		}
	}
	p.sum.add(v)
	if _, ok := p.counts[v]; ok || len(p.counts) < spillDistinct {
		p.counts[v]++
		return
	}
	p.spillValue(v)
}

// addAll counts every value of vs, as add does one by one, with the
// common case inline: a value on the 1 µs grid within the dense counters'
// range, while the raw samples are not kept.
func (p *population) addAll(vs []float64) {
	for _, v := range vs {
		if !p.keep && v >= 0 && p.dense != nil {
			if u := math.Round(v * 1000); u < denseLimitUS && float64(u)/1000 == v {
				if page := p.dense[int(u)/densePage]; page != nil && page[int(u)%densePage] < math.MaxUint32 {
					page[int(u)%densePage]++
					if p.n == 0 || v > p.max {
						p.max = v
					}
					if p.n == 0 || v < p.min {
						p.min = v
					}
					p.n++
					continue
				}
			}
		}
		p.add(v)
	}
}

// spillValue appends v to the temporary file, creating it on first use.
// Should the file fail, the value goes to the map after all: memory then
// grows, but the answer stays exact.
func (p *population) spillValue(v float64) {
	if p.spill == nil {
		s, err := newPopulationSpill()
		if err != nil {
			p.counts[v]++
			return
		}
		p.spill = s
	}
	if err := p.spill.write(v); err != nil {
		p.counts[v]++
	}
}

// mean is the exact mean, correctly rounded; ok is false when empty.
func (p *population) mean() (float64, bool) {
	if p.n == 0 {
		return 0, false
	}
	s := p.sum
	s.partials = slices.Clone(s.partials)
	p.eachDense(func(v float64, c uint64) { s.addProduct(v, c) })
	return s.value() / float64(p.n), true
}

// distinct calls f for every held value (dense counters and map, not the
// spill file) with its count, in no particular order.
func (p *population) distinct(f func(v float64, c uint64)) {
	p.eachDense(f)
	for v, c := range p.counts {
		f(v, c)
	}
}

// selectRanks returns the values of the given 1-based ranks in ascending
// order of value, as a sort of every sample would.
func (p *population) selectRanks(ranks []int) ([]float64, error) {
	out := make([]float64, len(ranks))
	if p.spill == nil {
		// Every value is held: sort the distinct values and walk the
		// cumulative counts.
		type vc struct {
			v float64
			c uint64
		}
		all := make([]vc, 0, len(p.counts))
		p.eachDense(func(v float64, c uint64) { all = append(all, vc{v, c}) })
		keys := slices.Sorted(maps.Keys(p.counts))
		merged := make([]vc, 0, len(all)+len(keys))
		i := 0
		for _, k := range keys {
			for i < len(all) && all[i].v < k {
				merged = append(merged, all[i])
				i++
			}
			merged = append(merged, vc{k, p.counts[k]})
		}
		merged = append(merged, all[i:]...)
		for j, r := range ranks {
			var cum uint64
			for _, e := range merged {
				cum += e.c
				if cum >= uint64(r) {
					out[j] = e.v
					break
				}
			}
		}
		return out, nil
	}
	// Pass one: counts by bucket over everything.
	var hist [1 << 16]uint64
	p.distinct(func(v float64, c uint64) { hist[bucketOf(v)] += c })
	if err := p.spill.each(func(v float64) { hist[bucketOf(v)]++ }); err != nil {
		return nil, err
	}
	// Find each rank's bucket and its rank within it.
	type target struct {
		bucket int
		within uint64
	}
	targets := make([]target, len(ranks))
	want := map[int]map[float64]uint64{}
	for j, r := range ranks {
		var cum uint64
		for b, c := range hist {
			if cum+c >= uint64(r) {
				targets[j] = target{b, uint64(r) - cum}
				want[b] = map[float64]uint64{}
				break
			}
			cum += c
		}
	}
	// Pass two: gather the distinct values of the wanted buckets.
	gather := func(v float64, c uint64) {
		if m, ok := want[bucketOf(v)]; ok {
			m[v] += c
		}
	}
	p.distinct(gather)
	if err := p.spill.each(func(v float64) { gather(v, 1) }); err != nil {
		return nil, err
	}
	for j, t := range targets {
		m := want[t.bucket]
		var cum uint64
		for _, v := range slices.Sorted(maps.Keys(m)) {
			cum += m[v]
			if cum >= t.within {
				out[j] = v
				break
			}
		}
	}
	return out, nil
}

// eachDense calls f for every non-zero dense counter in ascending order of
// value.
func (p *population) eachDense(f func(v float64, c uint64)) {
	for page, counters := range p.dense {
		for at, c := range counters {
			if c != 0 {
				f(float64(page*densePage+at)/1000, uint64(c))
			}
		}
	}
}

// bucketOf is the leading 16 bits of v's order-preserving bit pattern.
func bucketOf(v float64) int {
	b := math.Float64bits(v)
	if b>>63 == 1 {
		b = ^b
	} else {
		b |= 1 << 63
	}
	return int(b >> 48)
}

// clone copies the population (the spill file's values are re-added, so
// the copy spills into a file of its own); keep says whether the copy
// keeps raw samples, starting with the original's.
func (p *population) clone(keep bool) *population {
	c := &population{n: p.n, max: p.max, min: p.min, keep: keep, counts: maps.Clone(p.counts)}
	c.sum.partials = slices.Clone(p.sum.partials)
	if p.dense != nil {
		c.dense = make([][]uint32, len(p.dense))
		for i, page := range p.dense {
			if page != nil {
				c.dense[i] = slices.Clone(page)
			}
		}
	}
	if keep {
		c.samples = slices.Clone(p.samples)
	}
	if p.spill != nil {
		_ = p.spill.each(func(v float64) { c.spillValue(v) })
	}
	return c
}

// close removes the temporary file, if any.
func (p *population) close() {
	if p.spill != nil {
		p.spill.close()
		p.spill = nil
	}
}

// populationSpill is a temporary file of float64 values.
type populationSpill struct {
	f *os.File
	w *bufio.Writer
	n int
}

func newPopulationSpill() (*populationSpill, error) {
	f, err := os.CreateTemp("", "servebench-population-*.bin")
	if err != nil {
		return nil, err
	}
	return &populationSpill{f: f, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

func (s *populationSpill) write(v float64) error {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
	_, err := s.w.Write(b[:])
	if err == nil {
		s.n++
	}
	return err
}

// each calls f for every value in the file, in the order written.
func (s *populationSpill) each(f func(float64)) error {
	if err := s.w.Flush(); err != nil {
		return err
	}
	r := bufio.NewReaderSize(io.NewSectionReader(s.f, 0, int64(s.n)*8), 64<<10)
	var b [8]byte
	for range s.n {
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return err
		}
		f(math.Float64frombits(binary.LittleEndian.Uint64(b[:])))
	}
	return nil
}

func (s *populationSpill) close() {
	name := s.f.Name()
	s.f.Close()
	os.Remove(name)
}
