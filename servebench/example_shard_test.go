package servebench_test

import (
	"fmt"

	"github.com/servebench/servebench/servebench"
)

// A Kubernetes Indexed Job's pod reads its shard from JOB_COMPLETION_INDEX.
func ExampleParseShard() {
	getenv := func(name string) string {
		if name == servebench.ShardIndexEnv {
			return "2"
		}
		return ""
	}
	k, err := servebench.ParseShard("env/4", getenv)
	fmt.Println(k, err)
	// Output: 2/4 <nil>
}

// Every shard realizes the same schedule; each sends its own share, and the
// shares partition the schedule by arrival unit.
func ExampleSchedule_OwnShare() {
	w, _ := servebench.ParseWorkload("w.jsonl", []byte(`{"id":"a","prompt":"x","max_tokens":4}`+"\n"))
	arrival, _ := servebench.NewArrival(servebench.ArrivalSpec{Process: "constant", RateRPS: 10})
	full, _ := servebench.BuildSchedule(servebench.SchedulePlan{Workload: w, Arrival: arrival, Count: 5, RunID: "0193a5a0-0000-7000-8000-000000000001"})
	for k := range 2 {
		s, _ := full.ForShard(servebench.Shard{Index: k, Count: 2})
		var ids []string
		for _, e := range s.OwnShare().Entries {
			ids = append(ids, e.ID)
		}
		fmt.Println(s.Shard.Shard, ids)
	}
	// Output:
	// 0/2 [a a#3 a#5]
	// 1/2 [a#2 a#4]
}
