package main

import (
	"io"
	"os"
)

// writeOutput writes b to the file at path, or to stdout when path is
// empty.
func writeOutput(path string, b []byte, stdout io.Writer) error {
	if path != "" {
		return os.WriteFile(path, b, 0o644)
	}
	_, err := stdout.Write(b)
	return err
}
