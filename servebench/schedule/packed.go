package schedule

// PackedEntries holds what every compact form of a schedule needs of each
// entry in about 16 bytes: its ID in one shared byte slice, its scheduled
// time, and its class as an index into the distinct classes.
type PackedEntries struct {
	IDs       []byte
	idEnd     []uint32
	Scheduled []float64
	class     []uint16
	classes   names
	// adapter is each entry's index into adapters; nil while no entry has
	// an adapter.
	adapter  []uint16
	adapters names
}

// names numbers distinct strings in the order they are first seen, for a
// column of at most 65,535 of them held as uint16 indices.
type names struct {
	list  []string
	index map[string]uint16
}

// id is name's number, given on first sight; false past 65,535 names.
func (n *names) id(name string) (uint16, bool) {
	if k, ok := n.index[name]; ok {
		return k, true
	}
	if len(n.list) == 1<<16-1 {
		return 0, false
	}
	if n.index == nil {
		n.index = map[string]uint16{}
	}
	k := uint16(len(n.list))
	n.list = append(n.list, name)
	n.index[name] = k
	return k, true
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
func (p *PackedEntries) Class(i int) string { return p.classes.list[p.class[i]] }

// Add appends an entry; false when the packing's limits are passed: 4 GiB
// of ID bytes, 2^31 entries or 65,535 distinct classes.
func (p *PackedEntries) Add(id, class string, scheduledMS float64) bool {
	if len(p.IDs)+len(id) > 1<<32-1 || p.Len() >= 1<<31-1 {
		return false
	}
	k, ok := p.classes.id(class)
	if !ok {
		return false
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
	return p.adapters.list[p.adapter[i]]
}

// SetAdapter sets the adapter of the last entry added; false when the
// schedule has more than 65,535 distinct adapters.
func (p *PackedEntries) SetAdapter(name string) bool {
	if name == "" && p.adapter == nil {
		return true
	}
	if p.adapter == nil {
		p.adapters.id("") // number 0: the entries added before the first adapter
	}
	k, ok := p.adapters.id(name)
	if !ok {
		return false
	}
	n := p.Len()
	for len(p.adapter) < n-1 {
		p.adapter = append(p.adapter, 0)
	}
	p.adapter = append(p.adapter, k)
	return true
}
