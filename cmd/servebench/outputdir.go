package main

import (
	"fmt"
	"io"

	"github.com/servebench/servebench/internal/outputdir"
)

// prepareOutput refuses an --output that is not empty, so that two runs
// are never mixed and nothing of the user's is touched, unless overwrite
// is set; then it removes only what the directory's manifest.json names
// (see outputdir.Prepare). The returned directory writes the manifest
// once the command is done.
func prepareOutput(dir string, overwrite bool) (*outputdir.Dir, error) {
	if dir == "" {
		return nil, nil
	}
	return outputdir.Prepare("--output", dir, overwrite)
}

// finishOutput writes out's manifest.json, listing what command wrote,
// and says on stderr when it could not.
func finishOutput(out *outputdir.Dir, command string, stderr io.Writer) {
	if err := out.WriteManifest(command); err != nil {
		fmt.Fprintf(stderr, "servebench %s: %v\n", command, err)
	}
}
