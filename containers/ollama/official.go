package ollama

import (
	"context"

	"github.com/testcontainers/testcontainers-go"
	tcollama "github.com/testcontainers/testcontainers-go/modules/ollama"
)

// officialRun starts the request through testcontainers-go's official
// Ollama module (modules/ollama), so that servebench does not repeat what
// the module does: the image's port and, on a daemon with the NVIDIA
// runtime, a request for every GPU. servebench's request comes on top:
// readiness on the API instead of a listening port, the model from a GGUF
// file, log capture, and its own networking (its exposed ports replace the
// module's, so that host networking publishes none).
func officialRun(ctx context.Context, req testcontainers.GenericContainerRequest) (testcontainers.Container, error) {
	ports := req.ExposedPorts
	ctr, err := tcollama.Run(ctx, req.Image, testcontainers.CustomizeRequest(req),
		testcontainers.CustomizeRequestOption(func(r *testcontainers.GenericContainerRequest) error {
			r.ExposedPorts = ports
			return nil
		}))
	if ctr == nil {
		return nil, err
	}
	return ctr, err
}
