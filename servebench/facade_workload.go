package servebench

import "github.com/servebench/servebench/servebench/schedule"

// LoadWorkload reads the workload JSONL file at path (one request per
// line), the value RunConfig.Workload takes. It is schedule.LoadWorkload.
func LoadWorkload(path string) (*schedule.Workload, error) { return schedule.LoadWorkload(path) }
