package suites

import (
	"github.com/servebench/servebench/containers/vllm"
	"github.com/servebench/servebench/servebench/report"
)

// cache reads `cache:`: "reset" empties the engine's prefix cache before
// each load point's warmup (servebench.RunConfig.ResetPrefixCache),
// "uncontrolled" (the default) leaves it. For a vLLM engine the contract
// starts, reset also sets VLLM_SERVER_DEV_MODE=1 in its environment
// (vllm.WithDevMode), without which vLLM does not serve the reset route;
// an env that sets the variable to anything else is an error.
func (d *decoder) cache(m *mapping, c *Contract) {
	n := m.get("cache")
	if n == nil {
		return
	}
	switch v := d.str(m, "cache"); v {
	case report.CacheStateReset:
		c.CacheReset = true
	case report.CacheStateUncontrolled, "":
		return
	default:
		d.errorf(n, "cache", "want reset or uncontrolled, got %q", v)
		return
	}
	e := c.Engine
	if e == nil || e.Kind != "vllm" {
		return
	}
	if v, set := e.Env[vllm.DevModeEnv]; set && v != "1" {
		d.errorf(n, "cache", "reset needs %s=1 in a vLLM engine's environment, but engine.env sets it to %q", vllm.DevModeEnv, v)
		return
	}
	if e.Env == nil {
		e.Env = map[string]string{}
	}
	e.Env[vllm.DevModeEnv] = "1"
}
