package schedule_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/servebench/servebench/servebench/schedule"
)

// A saved schedule is read back entry by entry, in bounded memory, with
// the hash its writer gave.
func ExampleOpenEntries() {
	dir, _ := os.MkdirTemp("", "schedule-example-")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "schedule.json")
	sum, _ := schedule.Write(path, &schedule.Schedule{Schema: schedule.Schema, Mode: schedule.ModeOpen,
		WindowMS: [2]float64{0, 20}, Entries: []schedule.Entry{
			{ID: "a", ScheduledMS: 0, MaxTokens: 8},
			{ID: "b", ScheduledMS: 10.5, MaxTokens: 8},
		}})
	st, err := schedule.OpenEntries(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	var e schedule.Entry
	for {
		ok, err := st.Next(&e)
		if err != nil || !ok {
			break
		}
		fmt.Println(e.ID, e.ScheduledMS)
	}
	fmt.Println(st.Len(), "entries; same hash:", st.SHA256() == sum)
	// Output:
	// a 0
	// b 10.5
	// 2 entries; same hash: true
}

// The audits' fields of an entry that forces its length and declares its
// prompt.
func ExampleAuditedOf() {
	prompt := 128
	a, ok := schedule.AuditedOf(&schedule.Entry{ID: "a", MaxTokens: 64, IgnoreEOS: true, PromptTokens: &prompt})
	fmt.Printf("%+v %v\n", a, ok)
	// Output: {ForcedMaxTokens:64 PromptTokens:128 CarriedHistory:false} true
}
