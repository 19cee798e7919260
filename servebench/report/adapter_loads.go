package report

// AdapterLoad is one LoRA adapter the run loaded into the engine before
// its load: the adapter's name and path as given, the route the load call
// was sent to, the time from its send to the engine's complete answer
// (client monotonic clock) and the HTTP status the engine answered.
type AdapterLoad struct {
	Adapter string  `json:"adapter"`
	Path    string  `json:"path"`
	Route   string  `json:"route"`
	LoadMS  float64 `json:"load_ms"`
	Status  int     `json:"status"`
}

// SetAdapterLoads records the adapters the run loaded and copies each
// load time into the adapter breakdown's value of that name, where the
// run's mix sent requests to it.
func (r *Report) SetAdapterLoads(loads []AdapterLoad) {
	if len(loads) == 0 {
		return
	}
	r.AdapterLoads = append([]AdapterLoad(nil), loads...)
	dim := r.Breakdown["adapter"]
	if dim == nil {
		return
	}
	for _, l := range loads {
		v, ok := dim.Values[l.Adapter]
		if !ok {
			continue
		}
		ms := l.LoadMS
		v.LoadMS = &ms
		dim.Values[l.Adapter] = v
	}
}
