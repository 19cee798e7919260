package report

import (
	"github.com/servebench/servebench/internal/jsonscan"
	"github.com/servebench/servebench/servebench/record"
)

// decodeRequestScoreFast decodes one requests.jsonl line in the shape the
// scorer writes it, without reflection. It is a fast path in front of the
// strict decoder, not a second definition of the format: it accepts only
// plain lines (known keys, each once, every required key present, ASCII
// strings without escapes, numbers in JSON's grammar, nothing after the
// object) and returns false for anything else, so that the caller decodes
// that line strictly and its errors still name the line and the field.
// Whatever it accepts, strictjson accepts with the same value
// (TestRequestScoreFastMatchesStrict and its fuzz target check this).
//
// Each accepted line gets values of its own, as the strict decoder gives
// it: a reader that keeps a copy of the entry keeps valid pointers and
// slices. Its numbers share one allocation, and its repeated strings
// (classes, statuses, error messages) come from names.
func decodeRequestScoreFast(line []byte, rs *RequestScore, names *stringTable) bool {
	*rs = RequestScore{}
	s := jsonscan.New(line)
	d := scoreLine{s: s, rs: rs, names: names}
	seen, ok := s.Object(scoreFastKeys, d.field)
	if !ok {
		return false
	}
	s.SkipSpace()
	return s.AtEnd() && seen&scoreFastRequired == scoreFastRequired
}

// The keys the fast path knows, numbered for a bit set, in the order
// json.Marshal writes them.
const (
	sfID = iota
	sfClass
	sfBackend
	sfAdapter
	sfTenant
	sfObjective
	sfModality
	sfCachedFraction
	sfTurn
	sfStatus
	sfScheduled
	sfSent
	sfTTFT
	sfTTFTFromScheduled
	sfTPOT
	sfE2E
	sfLastToken
	sfScheduleLag
	sfMaxGap
	sfOutputTokens
	sfQuality
	sfQualityEvidence
	sfQualified
	sfReasons
	sfError
	sfFluidityMisses
	sfCount
)

// scoreFastNames lists RequestScore's keys in the order json.Marshal
// writes them.
var scoreFastNames = [sfCount]string{
	sfID: "id", sfClass: "class", sfBackend: "backend", sfAdapter: "adapter", sfTenant: "tenant",
	sfObjective: "objective", sfModality: "modality", sfCachedFraction: "cached_fraction", sfTurn: "turn",
	sfStatus: "status", sfScheduled: "scheduled_ms", sfSent: "sent_ms", sfTTFT: "ttft_ms",
	sfTTFTFromScheduled: "ttft_from_scheduled_ms", sfTPOT: "tpot_ms", sfE2E: "e2e_ms",
	sfLastToken: "last_token_ms", sfScheduleLag: "schedule_lag_ms", sfMaxGap: "max_gap_ms",
	sfOutputTokens: "output_tokens", sfQuality: "quality", sfQualityEvidence: "quality_evidence",
	sfQualified: "qualified", sfReasons: "reasons", sfError: "error", sfFluidityMisses: "fluidity_misses",
}

// scoreFastKeys are the keys the fast path knows, numbered as above.
var scoreFastKeys = jsonscan.NewKeys(scoreFastNames[:]...)

// scoreFastRequired are the keys json.Marshal always writes (no omitempty)
// and the strict decoder requires.
const scoreFastRequired = 1<<sfID | 1<<sfStatus | 1<<sfScheduled | 1<<sfSent | 1<<sfTTFT | 1<<sfTTFTFromScheduled |
	1<<sfTPOT | 1<<sfE2E | 1<<sfLastToken | 1<<sfScheduleLag | 1<<sfMaxGap | 1<<sfOutputTokens |
	1<<sfQuality | 1<<sfQualified | 1<<sfReasons

// scoreNumbers holds one entry's optional numbers in one allocation.
type scoreNumbers struct {
	ms     [8]float64
	tokens int
	misses int
}

// scoreLine is the state of one line's decoding.
type scoreLine struct {
	s     *jsonscan.Scanner
	rs    *RequestScore
	names *stringTable
	nums  *scoreNumbers
}

// numbers returns the line's block of numbers, allocated on first use.
func (d *scoreLine) numbers() *scoreNumbers {
	if d.nums == nil {
		d.nums = new(scoreNumbers)
	}
	return d.nums
}

// optMS reads null or a number into slot i of the line's numbers.
func (d *scoreLine) optMS(dst **float64, i int) bool {
	if d.s.Null() {
		return true
	}
	v, ok := d.s.Float()
	if ok {
		n := d.numbers()
		n.ms[i] = v
		*dst = &n.ms[i]
	}
	return ok
}

// optInt reads null or an integer into *slot, and points dst to it.
func (d *scoreLine) optInt(dst **int, slot func(*scoreNumbers) *int) bool {
	if d.s.Null() {
		return true
	}
	v, ok := d.s.Int()
	if ok {
		p := slot(d.numbers())
		*p = v
		*dst = p
	}
	return ok
}

// name reads a string, taking a repeated one from the table.
func (d *scoreLine) name(dst *string) bool {
	b, ok := d.s.Str()
	if ok {
		*dst = d.names.get(b)
	}
	return ok
}

// field decodes the value of field f.
func (d *scoreLine) field(f int) bool {
	rs, s := d.rs, d.s
	if dst := d.stringField(f); dst != nil {
		return d.name(dst)
	}
	if dst := d.msField(f); dst != nil {
		return d.optMS(dst, f-sfSent)
	}
	var ok bool
	switch f {
	case sfID:
		rs.ID, ok = s.Text()
	case sfStatus:
		var b []byte
		b, ok = s.Str()
		rs.Status = statusNamed(b, d.names)
	case sfScheduled:
		rs.ScheduledMS, ok = s.Float()
	case sfOutputTokens:
		ok = d.optInt(&rs.OutputTokens, func(n *scoreNumbers) *int { return &n.tokens })
	case sfFluidityMisses:
		ok = d.optInt(&rs.FluidityMisses, func(n *scoreNumbers) *int { return &n.misses })
	case sfQualified:
		rs.Qualified, ok = s.Bool()
	case sfReasons:
		ok = d.reasons()
	}
	return ok
}

// stringField is the string field f names; nil when it is not one that
// names, classes or explains (the ID and the status are read apart).
func (d *scoreLine) stringField(f int) *string {
	rs := d.rs
	switch f {
	case sfClass:
		return &rs.Class
	case sfBackend:
		return &rs.Backend
	case sfAdapter:
		return &rs.Adapter
	case sfTenant:
		return &rs.Tenant
	case sfObjective:
		return &rs.Objective
	case sfModality:
		return &rs.Modality
	case sfCachedFraction:
		return &rs.CachedFraction
	case sfTurn:
		return &rs.Turn
	case sfQuality:
		return &rs.Quality
	case sfQualityEvidence:
		return &rs.QualityEvidence
	case sfError:
		return &rs.Error
	}
	return nil
}

// msField is the optional time field f names, numbered from sfSent to
// sfMaxGap in the order of scoreNumbers.ms; nil for another field.
func (d *scoreLine) msField(f int) **float64 {
	rs := d.rs
	switch f {
	case sfSent:
		return &rs.SentMS
	case sfTTFT:
		return &rs.TTFTMS
	case sfTTFTFromScheduled:
		return &rs.TTFTFromScheduledMS
	case sfTPOT:
		return &rs.TPOTMS
	case sfE2E:
		return &rs.E2EMS
	case sfLastToken:
		return &rs.LastTokenMS
	case sfScheduleLag:
		return &rs.ScheduleLagMS
	case sfMaxGap:
		return &rs.MaxGapMS
	}
	return nil
}

// reasons reads null (nil) or an array of reasons (an empty one is not
// nil, as the strict decoder has it).
func (d *scoreLine) reasons() bool {
	if d.s.Null() {
		return true
	}
	var list []Reason
	ok := d.s.Array(func() bool {
		b, ok := d.s.Str()
		list = append(list, reasonNamed(b, d.names))
		return ok
	})
	if list == nil {
		list = []Reason{}
	}
	d.rs.Reasons = list
	return ok
}

// statusNamed is the status b names, without a copy for a declared one.
func statusNamed(b []byte, names *stringTable) record.Status {
	switch string(b) {
	case string(record.StatusSuccess):
		return record.StatusSuccess
	case string(record.StatusHTTPError):
		return record.StatusHTTPError
	case string(record.StatusTimeout):
		return record.StatusTimeout
	case string(record.StatusNotSent):
		return record.StatusNotSent
	}
	return record.Status(names.get(b))
}

// reasonNamed is the reason b names, without a copy for a declared one.
func reasonNamed(b []byte, names *stringTable) Reason {
	for _, r := range reasons {
		if string(b) == string(r) {
			return r
		}
	}
	return Reason(names.get(b))
}

// stringTable hands out one copy of each string it has seen, up to
// stringTableSize of them, so that a file's repeated values (classes,
// statuses, error messages) are not copied again for every line.
type stringTable struct {
	m map[string]string
}

// stringTableSize bounds a table: a file whose every error message names
// its request would otherwise grow it with its length.
const stringTableSize = 1024

// stringTableMaxLen is the longest string a table keeps.
const stringTableMaxLen = 256

// get returns the string b spells.
func (t *stringTable) get(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if v, ok := t.m[string(b)]; ok {
		return v
	}
	v := string(b)
	if len(b) > stringTableMaxLen || len(t.m) >= stringTableSize {
		return v
	}
	if t.m == nil {
		t.m = make(map[string]string)
	}
	t.m[v] = v
	return v
}
