package suites

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// EnvArtifacts names the environment variable that chooses the directory
// keeping every run directory; it overrides a contract's artifacts field.
const EnvArtifacts = "SERVEBENCH_ARTIFACTS"

// ArtifactsRoot is where the contract's run directories are kept:
// $SERVEBENCH_ARTIFACTS, else the contract's artifacts field, else
// servebench-artifacts in the system's temporary directory. Nothing under
// it is deleted.
func (c *Contract) ArtifactsRoot() string {
	if dir := os.Getenv(EnvArtifacts); dir != "" {
		return dir
	}
	if c.Artifacts != "" {
		return c.Artifacts
	}
	return filepath.Join(os.TempDir(), "servebench-artifacts")
}

// unsafeName matches what is replaced in a directory name.
var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// dirName turns a name into a directory name.
func dirName(name string) string {
	s := strings.Trim(unsafeName.ReplaceAllString(name, "-"), "-.")
	if s == "" {
		return "contract"
	}
	return s
}

// runDir is a fresh run directory for one load point:
// <root>/<contract>/<UTC time>-<load point>.
func (c *Contract) runDir(p LoadPoint, now time.Time) string {
	return filepath.Join(c.ArtifactsRoot(), dirName(c.Name), now.UTC().Format("20060102T150405.000Z")+"-"+p.Dir)
}
