package containers

import (
	"fmt"
	"os"
	"path/filepath"
)

// EnvArtifactDir names the environment variable that says where test runs
// leave their artifacts (engine logs, run directories); CI points it at a
// directory it keeps.
const EnvArtifactDir = "SERVEBENCH_ARTIFACT_DIR"

// ArtifactDir returns the directory named by SERVEBENCH_ARTIFACT_DIR, or
// servebench-artifacts in the system's temporary directory, with sub joined
// to it, creating it if needed.
func ArtifactDir(sub ...string) (string, error) {
	root := os.Getenv(EnvArtifactDir)
	if root == "" {
		root = filepath.Join(os.TempDir(), "servebench-artifacts")
	}
	dir := filepath.Join(append([]string{root}, sub...)...)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("artifact directory: %w", err)
	}
	return dir, nil
}
