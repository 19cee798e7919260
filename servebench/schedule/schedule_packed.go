package schedule

// PackedEntries holds what every compact form of a schedule needs of each
// entry in about 16 bytes: its ID in one shared byte slice, its scheduled
// time, and its class as an index into the distinct classes.
type PackedEntries struct {
	IDs       []byte
	idEnd     []uint32
	Scheduled []float64
	class     []uint16
	classes   []string
	classIdx  map[string]uint16
	// adapter is each entry's index into adapters; nil while no entry has
	// an adapter.
	adapter  []uint16
	adapters []string
}

func (p *PackedEntries) Len() int { return len(p.Scheduled) }

// ID is entry i's ID; the bytes are shared, so copy them to keep them.
func (p *PackedEntries) ID(i int) []byte {
	start := uint32(0)
	if i > 0 {
		start = p.idEnd[i-1]
	}
	return p.IDs[start:p.idEnd[i]]
}

// Class is entry i's class.
func (p *PackedEntries) Class(i int) string { return p.classes[p.class[i]] }

// Add appends an entry; false when the packing's limits are passed: 4 GiB
// of ID bytes, 2^31 entries or 65,535 distinct classes.
func (p *PackedEntries) Add(id, class string, scheduledMS float64) bool {
	if len(p.IDs)+len(id) > 1<<32-1 || p.Len() >= 1<<31-1 {
		return false
	}
	k, ok := p.classIdx[class]
	if !ok {
		if len(p.classes) == 1<<16-1 {
			return false
		}
		if p.classIdx == nil {
			p.classIdx = map[string]uint16{}
		}
		k = uint16(len(p.classes))
		p.classes = append(p.classes, class)
		p.classIdx[class] = k
	}
	p.IDs = append(p.IDs, id...)
	p.idEnd = append(p.idEnd, uint32(len(p.IDs)))
	p.Scheduled = append(p.Scheduled, scheduledMS)
	p.class = append(p.class, k)
	return true
}

// Adapter is entry i's LoRA adapter; "" when it has none.
func (p *PackedEntries) Adapter(i int) string {
	if i >= len(p.adapter) {
		return ""
	}
	return p.adapters[p.adapter[i]]
}

// SetAdapter sets the adapter of the last entry added; false when the
// schedule has more than 65,535 distinct adapters.
func (p *PackedEntries) SetAdapter(name string) bool {
	if name == "" && p.adapter == nil {
		return true
	}
	if p.adapters == nil {
		p.adapters = []string{""}
	}
	k := -1
	for j, a := range p.adapters {
		if a == name {
			k = j
			break
		}
	}
	if k < 0 {
		if len(p.adapters) == 1<<16-1 {
			return false
		}
		k = len(p.adapters)
		p.adapters = append(p.adapters, name)
	}
	n := p.Len()
	for len(p.adapter) < n-1 {
		p.adapter = append(p.adapter, 0)
	}
	p.adapter = append(p.adapter, uint16(k))
	return true
}
