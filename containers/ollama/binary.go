package ollama

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// BuildVersion is the Ollama version .ci/build-ollama.sh builds by default.
const BuildVersion = "v0.17.4"

// EnvBinary names the environment variable that points at an ollama binary.
const EnvBinary = "SERVEBENCH_OLLAMA_BIN"

// BuildCommand builds a CPU-only Ollama from the Go module proxy into
// CachedBinary(BuildVersion); run it from the repository root.
const BuildCommand = "bash .ci/build-ollama.sh"

// ErrNoBinary is wrapped by FindBinary's error when no binary is found.
var ErrNoBinary = errors.New("no ollama binary")

// CachedBinary is where .ci/build-ollama.sh puts the binary of version:
// $SERVEBENCH_CACHE_DIR/ollama-<version>/bin/ollama, with SERVEBENCH_CACHE_DIR
// defaulting to $HOME/.cache/servebench.
func CachedBinary(version string) string {
	root := os.Getenv("SERVEBENCH_CACHE_DIR")
	if root == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			home = os.TempDir()
		}
		root = filepath.Join(home, ".cache", "servebench")
	}
	return filepath.Join(root, "ollama-"+version, "bin", "ollama")
}

// FindBinary returns the ollama binary to run: $SERVEBENCH_OLLAMA_BIN when
// set (it must exist), else the cached build of BuildVersion when present,
// else "ollama" on PATH. The error wraps ErrNoBinary and says how to build
// one.
func FindBinary() (string, error) {
	if p := os.Getenv(EnvBinary); p != "" {
		if isExecutable(p) {
			return p, nil
		}
		return "", fmt.Errorf("%w: %s=%s is not an executable file", ErrNoBinary, EnvBinary, p)
	}
	if p := CachedBinary(BuildVersion); isExecutable(p) {
		return p, nil
	}
	if p, err := exec.LookPath("ollama"); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%w: %s is unset, %s does not exist and none is on PATH; build one with `%s` (8 to 11 minutes on 2 cores the first time; later runs find the cached binary)",
		ErrNoBinary, EnvBinary, CachedBinary(BuildVersion), BuildCommand)
}

func isExecutable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
}
