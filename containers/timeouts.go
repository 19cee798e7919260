package containers

import "time"

// DefaultModelStartupTimeout is the readiness timeout of engines that load
// model weights (download, load, compile, capture graphs) before they serve.
const DefaultModelStartupTimeout = 20 * time.Minute

// DefaultStartupTimeout is the readiness timeout of engines that start at
// once, such as the simulated engine.
const DefaultStartupTimeout = time.Minute
