package containers

import "github.com/servebench/servebench/servebench/report"

// EngineInfo turns an engine's identity into the entry a report's experiment
// record carries. The cold start is nil when it was not measured.
func EngineInfo(e Engine) *report.EngineInfo {
	if e == nil {
		return nil
	}
	info := e.Identity()
	info.Args = append([]string(nil), info.Args...)
	info.ColdStartMS = nil
	if cs := e.ColdStart(); cs > 0 {
		ms := float64(cs.Microseconds()) / 1000
		info.ColdStartMS = &ms
	}
	return &info
}
