package schedule

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// streamAll reads every entry an EntryStream yields.
func streamAll(t *testing.T, path string) ([]Entry, *EntryStream) {
	t.Helper()
	s, err := OpenEntries(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var got []Entry
	for {
		var e Entry
		ok, err := s.Next(&e)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return got, s
		}
		got = append(got, e)
	}
}

// A streamed schedule yields the entries Read gives, in order, with the
// same hash; a shard's, the units OwnShare keeps: of units a, b+b2, c, d,
// shard 1 of 2 owns the second and fourth (b, b2 and d).
func TestEntryStreamYieldsTheSchedule(t *testing.T) {
	pt := 12
	s := &Schedule{Schema: Schema, Mode: ModeOpen, RunID: "r", WindowMS: [2]float64{0, 40}, ScheduleLagToleranceMS: 20,
		Entries: []Entry{
			{ID: "a", Row: 0, ScheduledMS: 0, MaxTokens: 8, Class: "chat"},
			{ID: "b", Row: 1, ScheduledMS: 10.5, MaxTokens: 8, PromptTokens: &pt},
			{ID: "b2", Row: 2, ScheduledMS: 10.5, MaxTokens: 8, DependsOn: "b", ThinkMS: 3},
			{ID: "c", Row: 0, ScheduledMS: 20, MaxTokens: 8, Adapter: "x", IgnoreEOS: true},
			{ID: `d"}{`, Row: 0, ScheduledMS: 30.25, MaxTokens: 8},
		}}
	dir := t.TempDir()
	path := filepath.Join(dir, "schedule.json")
	sum, err := Write(path, s)
	if err != nil {
		t.Fatal(err)
	}
	got, st := streamAll(t, path)
	if !reflect.DeepEqual(got, s.Entries) || st.SHA256() != sum || st.Len() != 5 || st.Head.RunID != "r" || st.Head.WindowMS[1] != 40 {
		t.Fatalf("got %+v, sha %s (want %s), len %d, head %+v", got, st.SHA256(), sum, st.Len(), st.Head)
	}
	sh, err := s.ForShard(Shard{Index: 1, Count: 2})
	if err != nil {
		t.Fatal(err)
	}
	shardPath := filepath.Join(dir, "shard.json")
	if _, err := Write(shardPath, sh); err != nil {
		t.Fatal(err)
	}
	got, _ = streamAll(t, shardPath)
	var ids []string
	for _, e := range got {
		ids = append(ids, e.ID)
	}
	if want := []string{"b", "b2", `d"}{`}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("shard 1 of 2 streamed %v, want %v", ids, want)
	}
}

// What the stream does not take declines: a member after the entries, a
// torn file, an entry with no ID.
func TestEntryStreamDeclines(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"member after entries": `{"schema":"` + Schema + `","mode":"open","entries":[{"id":"a","row":0,"scheduled_ms":0,"max_tokens":1}],"run_id":"r"}`,
		"torn":                 `{"schema":"` + Schema + `","mode":"open","entries":[{"id":"a","row":0,"sched`,
		"no id":                `{"schema":"` + Schema + `","mode":"open","entries":[{"row":0,"scheduled_ms":0,"max_tokens":1}]}`,
	} {
		path := filepath.Join(dir, "s.json")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := OpenEntries(path)
		if err == nil {
			for err == nil {
				var e Entry
				var ok bool
				if ok, err = s.Next(&e); !ok && err == nil {
					break
				}
			}
			s.Close()
		}
		if !errors.Is(err, ErrStreamDeclined) {
			t.Errorf("%s: %v, want a decline", name, err)
		}
	}
}

// Entries that cross the stream's 1 MiB buffer, and one larger than it,
// are read whole.
func TestEntryStreamAcrossBuffers(t *testing.T) {
	s := &Schedule{Schema: Schema, Mode: ModeOpen, RunID: "r", WindowMS: [2]float64{0, 30000}}
	for i := range 30000 {
		s.Entries = append(s.Entries, Entry{ID: "r" + strconv.Itoa(i), Row: i % 7, ScheduledMS: float64(i) / 4, MaxTokens: 64})
	}
	s.Entries[20000].ID = strings.Repeat(`x\`, 1<<20) // 2 MiB, escaped
	path := filepath.Join(t.TempDir(), "schedule.json")
	sum, err := Write(path, s)
	if err != nil {
		t.Fatal(err)
	}
	got, st := streamAll(t, path)
	if len(got) != len(s.Entries) || st.SHA256() != sum {
		t.Fatalf("%d entries, sha %s; want %d, %s", len(got), st.SHA256(), len(s.Entries), sum)
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], s.Entries[i]) {
			t.Fatalf("entry %d: %+v, want %+v", i, got[i].ID[:min(len(got[i].ID), 20)], s.Entries[i].ID[:min(len(s.Entries[i].ID), 20)])
		}
	}
}
