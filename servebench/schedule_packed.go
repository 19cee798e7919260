package servebench

// packedEntries holds what every compact form of a schedule needs of each
// entry in about 16 bytes: its ID in one shared byte slice, its scheduled
// time, and its class as an index into the distinct classes.
type packedEntries struct {
	ids       []byte
	idEnd     []uint32
	scheduled []float64
	class     []uint16
	classes   []string
	classIdx  map[string]uint16
}

func (p *packedEntries) len() int { return len(p.scheduled) }

// id is entry i's ID; the bytes are shared, so copy them to keep them.
func (p *packedEntries) id(i int) []byte {
	start := uint32(0)
	if i > 0 {
		start = p.idEnd[i-1]
	}
	return p.ids[start:p.idEnd[i]]
}

// className is entry i's class.
func (p *packedEntries) className(i int) string { return p.classes[p.class[i]] }

// add appends an entry; false when the packing's limits are passed: 4 GiB
// of ID bytes, 2^31 entries or 65,535 distinct classes.
func (p *packedEntries) add(id, class string, scheduledMS float64) bool {
	if len(p.ids)+len(id) > 1<<32-1 || p.len() >= 1<<31-1 {
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
	p.ids = append(p.ids, id...)
	p.idEnd = append(p.idEnd, uint32(len(p.ids)))
	p.scheduled = append(p.scheduled, scheduledMS)
	p.class = append(p.class, k)
	return true
}
