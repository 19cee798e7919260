package main

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

func init() {
	register("version", "print servebench's version, commit and Go version", runVersion)
}

// runVersion prints the module version (or "devel"), the VCS revision the
// binary was built from when known, and the Go version.
func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("servebench version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if code, done := parseCommandLine(fs, args, stderr); done {
		return code
	}
	fmt.Fprintln(stdout, versionLine())
	return 0
}

// versionLine is "servebench VERSION [commit REV[+dirty]] GOVERSION".
func versionLine() string {
	version, revision, dirty := "devel", "", false
	if info, ok := debug.ReadBuildInfo(); ok {
		if v := info.Main.Version; v != "" && v != "(devel)" {
			version = v
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	line := "servebench " + version
	if revision != "" {
		if len(revision) > 12 {
			revision = revision[:12]
		}
		line += " commit " + revision
		if dirty {
			line += "+dirty"
		}
	}
	return line + " " + runtime.Version()
}
