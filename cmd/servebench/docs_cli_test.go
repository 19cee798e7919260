package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestCLIReferenceListsEveryFlag: docs/cli.md has a section for every
// command, and each section names every flag that the command's -h prints
// and no flag it does not take. The workload subcommands' flags come from
// each importer's and generator's options, and version takes none.
func TestCLIReferenceListsEveryFlag(t *testing.T) {
	doc := readRepoFile(t, "docs/cli.md")
	for name := range commands {
		if !strings.Contains(doc, "\n## `servebench "+name) {
			t.Errorf("docs/cli.md has no section for %s", name)
		}
	}
	flagLine := regexp.MustCompile(`(?m)^  -([a-z0-9-]+)`)
	tableRow := regexp.MustCompile("(?m)^\\| `--([a-z0-9-]+)")
	for _, args := range [][]string{
		{"run"}, {"sweep"}, {"score"}, {"demo"}, {"ab"}, {"compare"}, {"merge"}, {"pareto"}, {"history"},
		{"k8s", "job"}, {"k8s", "merge-job"}, {"k8s", "unpack-workload"}, {"check"},
	} {
		code, stdout, stderr := runCLI(append(slices.Clone(args), "-h")...)
		if code != 0 {
			t.Fatalf("%s -h: exit %d\n%s", strings.Join(args, " "), code, stderr)
		}
		var flags []string
		for _, m := range flagLine.FindAllStringSubmatch(stdout+stderr, -1) {
			flags = append(flags, m[1])
		}
		if len(flags) == 0 {
			t.Fatalf("%s -h printed no flags:\n%s", strings.Join(args, " "), stderr)
		}
		heading := "## `servebench " + strings.Join(args, " ") + "`"
		section := markdownSection(t, doc, "docs/cli.md", heading)
		for _, f := range flags {
			if !strings.Contains(section, "`--"+f+"`") && !strings.Contains(section, "`--"+f+" ") {
				t.Errorf("docs/cli.md, %s: --%s is not listed", heading, f)
			}
		}
		for _, m := range tableRow.FindAllStringSubmatch(section, -1) {
			if !slices.Contains(flags, m[1]) {
				t.Errorf("docs/cli.md, %s: lists --%s, which the command does not take", heading, m[1])
			}
		}
	}
}
