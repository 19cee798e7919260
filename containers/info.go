package containers

import "github.com/servebench/servebench/servebench"

// EngineInfo turns an engine's identity into the entry a report's experiment
// record carries. The cold start is nil when it was not measured.
func EngineInfo(e Engine) *servebench.EngineInfo {
	if e == nil {
		return nil
	}
	id := e.Identity()
	info := &servebench.EngineInfo{
		Kind:    id.Kind,
		Image:   id.Image,
		ImageID: id.ImageID,
		Model:   id.Model,
		Args:    append([]string(nil), id.Args...),
		Version: id.Version,
	}
	if cs := e.ColdStart(); cs > 0 {
		ms := float64(cs.Microseconds()) / 1000
		info.ColdStartMS = &ms
	}
	return info
}
