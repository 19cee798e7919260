package schedule

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash/maphash"
	"io"
	"os"
	"strconv"

	"github.com/servebench/servebench/internal/jsonscan"
	"github.com/servebench/servebench/internal/strictjson"
	"github.com/servebench/servebench/servebench/record"
)

// ErrStreamDeclined says the streaming scorer met something it leaves to
// the strict in-memory reader: an input error (which that reader names by
// file, line and field) or a shape the fast paths do not take.
var ErrStreamDeclined = errors.New("declined by the streaming scorer")

// Compact holds what scoring needs of each schedule entry in about
// 30 bytes: the packed ID, class and scheduled time, and whether its time
// is fixed at run time. A hash table of entry indices finds an entry by ID.
type Compact struct {
	PackedEntries
	Head      Schedule // every field but Entries
	Dependent []bool
	// audited holds what the output-length and prompt-token audits need
	// of each entry; nil while no entry forces its length or declares
	// its prompt.
	audited []AuditedEntry
	// turns numbers each entry in its conversation (1 for an entry that
	// depends on none); nil while no entry depends on another.
	turns []uint16
	// turnNames[k] is turn k's name, made once rather than per record.
	turnNames []string
	table     []int32
	seed      maphash.Seed
	SHA256    string
}

// Lookup finds the entry with this ID; -1 when there is none.
func (c *Compact) Lookup(id []byte) int {
	mask := uint64(len(c.table) - 1)
	for h := maphash.Bytes(c.seed, id) & mask; ; h = (h + 1) & mask {
		i := c.table[h]
		if i < 0 || bytes.Equal(c.ID(int(i)), id) {
			return int(i)
		}
	}
}

// index builds the hash table; false when two entries share an ID.
func (c *Compact) index() bool {
	size := 1
	for size < 2*c.Len() {
		size <<= 1
	}
	c.table = make([]int32, size)
	for i := range c.table {
		c.table[i] = -1
	}
	c.seed = maphash.MakeSeed()
	mask := uint64(size - 1)
	for i := range c.Len() {
		id := c.ID(i)
		h := maphash.Bytes(c.seed, id) & mask
		for c.table[h] >= 0 {
			if bytes.Equal(c.ID(int(c.table[h])), id) {
				return false
			}
			h = (h + 1) & mask
		}
		c.table[h] = int32(i)
	}
	return true
}

// ReadCompact reads schedule.json in one streamed pass. Anything
// short of a well-formed schedule in the runner's shape declines.
func ReadCompact(path string) (*Compact, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &record.InputError{File: path, Msg: err.Error()}
	}
	defer f.Close()
	h := sha256.New()
	dec := json.NewDecoder(io.TeeReader(bufio.NewReaderSize(f, 256<<10), h))
	c := &Compact{}
	head, ok := c.readObject(dec)
	if !ok {
		return nil, ErrStreamDeclined
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, ErrStreamDeclined
	}
	obj, err := json.Marshal(head)
	// A shard's schedule holds the whole run, and readEntries kept the
	// shard's own share (as OwnShare does), which it alone scores.
	if err != nil || strictjson.Decode(obj, &c.Head) != nil || c.Head.Schema != Schema {
		return nil, ErrStreamDeclined
	}
	if !c.index() {
		return nil, ErrStreamDeclined
	}
	c.SHA256 = hex.EncodeToString(h.Sum(nil))
	return c, nil
}

// readObject reads the schedule's object: it streams the entries into c
// and returns every other member raw, with entries standing as []. false
// declines.
func (c *Compact) readObject(dec *json.Decoder) (map[string]json.RawMessage, bool) {
	if !readDelim(dec, '{') {
		return nil, false
	}
	head := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return nil, false
		}
		if _, dup := head[key]; dup {
			return nil, false
		}
		if key == "entries" {
			head[key] = json.RawMessage("[]")
			share, ok := shareOf(head["shard"])
			if !ok || !c.readEntries(dec, share) {
				return nil, false
			}
			continue
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, false
		}
		head[key] = raw
	}
	return head, readDelim(dec, '}')
}

// shareOf reads a schedule's shard member, written before its entries:
// nil (every entry) when there is none; false declines one that does not
// decode or names no valid shard.
func shareOf(raw json.RawMessage) (*Shard, bool) {
	if raw == nil {
		return nil, true
	}
	var h ShardHead
	if strictjson.Decode(raw, &h) != nil || h.Shard.Validate() != nil {
		return nil, false
	}
	return &h.Shard, true
}

// readEntries reads the entries array into c: of a shard's schedule, only
// the arrival units (an entry without a dependency and the later turns
// that follow it) the shard owns, as OwnShare keeps them. false declines.
func (c *Compact) readEntries(dec *json.Decoder, share *Shard) bool {
	if !readDelim(dec, '[') {
		return false
	}
	var raw json.RawMessage
	var e Entry
	unit := -1
	for dec.More() {
		if err := dec.Decode(&raw); err != nil || !decodeEntry(raw, &e) {
			return false
		}
		if e.DependsOn == "" || unit < 0 {
			unit++
		}
		if share != nil && unit%share.Count != share.Index {
			continue
		}
		if !c.addDecoded(&e) {
			return false
		}
	}
	return readDelim(dec, ']')
}

// decodeEntry decodes one entry into e, fast when it can and strictly
// otherwise; false when it does not decode.
func decodeEntry(raw json.RawMessage, e *Entry) bool {
	if !decodeScheduleEntryFast(raw, e) {
		*e = Entry{}
		if strictjson.Decode(raw, e) != nil {
			return false
		}
	}
	return true
}

// addDecoded adds a decoded entry to c: false declines one that has no ID
// or a bad scheduled time, or an entry past the packing's limits. (A
// repeated ID is declined when the table is built.)
func (c *Compact) addDecoded(e *Entry) bool {
	if e.ID == "" || record.CheckTime(e.ScheduledMS) != "" {
		return false
	}
	if !c.Add(e.ID, e.Class, e.ScheduledMS) || !c.SetAdapter(e.Adapter) || !c.setAudited(e) {
		return false
	}
	c.Dependent = append(c.Dependent, e.DependsOn != "")
	if e.DependsOn != "" && c.turns == nil {
		c.turns = make([]uint16, c.Len()-1, c.Len())
		for i := range c.turns {
			c.turns[i] = 1
		}
	}
	if c.turns != nil {
		// A later turn follows its previous one (an arrival unit is
		// written whole, in order).
		turn := uint16(1)
		if n := len(c.turns); e.DependsOn != "" && n > 0 {
			turn = min(c.turns[n-1], 1<<16-2) + 1
		}
		c.turns = append(c.turns, turn)
	}
	return true
}

// Turn is entry i's turn in its conversation, as the report's breakdown
// names it; "" when the schedule has no conversation.
func (c *Compact) Turn(i int) string {
	if c.turns == nil {
		return ""
	}
	k := int(c.turns[i])
	for len(c.turnNames) <= k {
		c.turnNames = append(c.turnNames, strconv.Itoa(len(c.turnNames)))
	}
	return c.turnNames[k]
}

// AuditedEntry is what the audits need of one entry: the max_tokens it
// forced (0 when it does not ignore EOS), the prompt tokens its row
// declared (-1 when none), and whether its row carries earlier answers
// (Entry.CarriedHistory).
type AuditedEntry struct {
	ForcedMaxTokens int32
	PromptTokens    int32
	CarriedHistory  bool
}

// Audited is entry i's audited fields.
func (c *Compact) Audited(i int) AuditedEntry {
	if i >= len(c.audited) {
		return AuditedEntry{PromptTokens: -1}
	}
	return c.audited[i]
}

// AuditedOf is the audited fields of an entry; false for a value past
// int32.
func AuditedOf(e *Entry) (AuditedEntry, bool) {
	a := AuditedEntry{PromptTokens: -1}
	if e.IgnoreEOS {
		if e.MaxTokens > 1<<31-1 {
			return a, false
		}
		a.ForcedMaxTokens = int32(max(e.MaxTokens, 1))
	}
	if e.PromptTokens != nil {
		if *e.PromptTokens < 0 || *e.PromptTokens > 1<<31-1 {
			return a, false
		}
		a.PromptTokens = int32(*e.PromptTokens)
	}
	a.CarriedHistory = e.CarriedHistory
	return a, true
}

// setAudited keeps the audited fields of the entry just added; false for
// a value past int32.
func (c *Compact) setAudited(e *Entry) bool {
	a, ok := AuditedOf(e)
	if !ok {
		return false
	}
	if c.audited == nil && a == (AuditedEntry{PromptTokens: -1}) {
		return true
	}
	for len(c.audited) < c.Len()-1 {
		c.audited = append(c.audited, AuditedEntry{PromptTokens: -1})
	}
	c.audited = append(c.audited, a)
	return true
}

// readDelim reads the next token and reports whether it is the delimiter d.
func readDelim(dec *json.Decoder, d json.Delim) bool {
	tok, err := dec.Token()
	return err == nil && tok == d
}

// decodeScheduleEntryFast decodes a plain schedule entry (no quality
// expectation) as record.DecodeFast does an outcome: false for anything
// it does not take, which the caller then decodes strictly.
func decodeScheduleEntryFast(raw []byte, e *Entry) bool {
	*e = Entry{}
	s := jsonscan.New(raw)
	if !s.Byte('{') {
		return false
	}
	const (
		fID = 1 << iota
		fRow
		fClass
		fScheduled
		fDependsOn
		fThink
		fMaxTokens
		fIgnoreEOS
		fAdapter
		fPromptTokens
		fCarried
	)
	var seen int
	for {
		key, ok := s.Str()
		if !ok || !s.Byte(':') {
			return false
		}
		var f int
		switch string(key) {
		case "id":
			f = fID
			e.ID, ok = s.Text()
		case "row":
			f = fRow
			e.Row, ok = s.Int()
		case "class":
			f = fClass
			e.Class, ok = s.Text()
		case "scheduled_ms":
			f = fScheduled
			e.ScheduledMS, ok = s.Float()
		case "depends_on":
			f = fDependsOn
			e.DependsOn, ok = s.Text()
		case "think_ms":
			f = fThink
			e.ThinkMS, ok = s.Float()
		case "max_tokens":
			f = fMaxTokens
			e.MaxTokens, ok = s.Int()
		case "ignore_eos":
			f = fIgnoreEOS
			e.IgnoreEOS, ok = s.Bool()
		case "adapter":
			f = fAdapter
			e.Adapter, ok = s.Text()
		case "prompt_tokens":
			f = fPromptTokens
			var n int
			n, ok = s.Int()
			e.PromptTokens = &n
		case "carried_history":
			f = fCarried
			e.CarriedHistory, ok = s.Bool()
		default:
			return false
		}
		if !ok || seen&f != 0 {
			return false
		}
		seen |= f
		if s.Byte(',') {
			continue
		}
		if !s.Byte('}') {
			return false
		}
		break
	}
	s.SkipSpace()
	const required = fID | fRow | fScheduled | fMaxTokens
	return s.AtEnd() && seen&required == required
}
