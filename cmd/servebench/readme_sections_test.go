package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// readRepoFile reads a file by its path from the repository root.
func readRepoFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile("../../" + path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// markdownSection returns the text of doc after heading (a whole line) up
// to the next heading of the same or a higher level outside code blocks.
func markdownSection(t *testing.T, doc, file, heading string) string {
	t.Helper()
	i := strings.Index("\n"+doc, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("%s has no heading %q", file, heading)
	}
	level := strings.Index(heading, " ") // the number of leading #
	rest := doc[i+len(heading)+1:]
	offset, fenced := 0, false
	for _, line := range strings.SplitAfter(rest, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		n := strings.Index(line, " ")
		if !fenced && n > 0 && n <= level && strings.Trim(line[:n], "#") == "" {
			return rest[:offset]
		}
		offset += len(line)
	}
	return rest
}

// TestREADMEOpensWithTheTwoCommands: the README's first code block is the
// demo and the test suite, in that order.
func TestREADMEOpensWithTheTwoCommands(t *testing.T) {
	readme := readRepoFile(t, "README.md")
	first := strings.Index(readme, "```")
	if two := strings.Index(readme, "## Two commands"); two < 0 || first < two {
		t.Fatalf("the README's first code block is not under \"## Two commands\"")
	}
	cmds := readmeCommands(t, "## Two commands")
	if len(cmds) != 2 {
		t.Fatalf("the two commands block holds %d commands: %q", len(cmds), cmds)
	}
	if got := strings.Join(cmds[0][:4], " "); got != "go run ./cmd/servebench demo" {
		t.Errorf("first command %q, want go run ./cmd/servebench demo", got)
	}
	if got := strings.Join(cmds[1][:3], " "); got != "go test ./..." {
		t.Errorf("second command %q, want go test ./...", got)
	}
	if _, ok := commands["demo"]; !ok {
		t.Error("the README runs demo, which the CLI does not have")
	}
}

// TestREADMEGoGetNamesTheModule: the go get line names go.mod's module.
func TestREADMEGoGetNamesTheModule(t *testing.T) {
	module := regexp.MustCompile(`(?m)^module (\S+)$`).FindStringSubmatch(readRepoFile(t, "go.mod"))
	if module == nil {
		t.Fatal("go.mod has no module line")
	}
	cmds := readmeCommands(t, "## Use it in your module")
	want := [][]string{{"go", "get", module[1]}}
	if !slices.EqualFunc(cmds, want, slices.Equal[[]string]) {
		t.Errorf("the go get block is %q, want %q", cmds, want)
	}
}

// TestREADMEShowsTheExamplesVerbatim: the README's Go spec and YAML
// contract are the files that go test ./examples compiles, loads and runs.
func TestREADMEShowsTheExamplesVerbatim(t *testing.T) {
	readme := readRepoFile(t, "README.md")
	for file, fence := range map[string]string{
		"examples/slo_test.go":               "```go\n",
		"examples/contracts/chat-smoke.yaml": "```yaml\n",
	} {
		if !strings.Contains(readme, fence+readRepoFile(t, file)+"```") {
			t.Errorf("the README does not show %s verbatim in a %q block", file, strings.TrimSpace(fence))
		}
	}
	if n := strings.Count(readme, "```go\n"); n != 1 {
		t.Errorf("the README has %d Go blocks, want 1 (the example spec)", n)
	}
}

// TestREADMEListsEveryCommand: the command table has one row per command
// of the CLI and no other.
func TestREADMEListsEveryCommand(t *testing.T) {
	table := markdownSection(t, readRepoFile(t, "README.md"), "README.md", "### Every command")
	var listed []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z0-9-]+)` \\|").FindAllStringSubmatch(table, -1) {
		listed = append(listed, m[1])
	}
	var want []string
	for name := range commands {
		want = append(want, name)
	}
	slices.Sort(want)
	slices.Sort(listed)
	if !slices.Equal(listed, want) {
		t.Errorf("the README's command table lists %q, the CLI has %q", listed, want)
	}
}

// TestREADMEDependencyTableNamesEveryRequire: every direct requirement of
// go.mod has a row that justifies it.
func TestREADMEDependencyTableNamesEveryRequire(t *testing.T) {
	table := markdownSection(t, readRepoFile(t, "README.md"), "README.md", "## Dependencies")
	direct := 0
	inBlock := false
	for _, line := range strings.Split(readRepoFile(t, "go.mod"), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "require (":
			inBlock = true
			continue
		case line == ")":
			inBlock = false
			continue
		case strings.HasPrefix(line, "require "):
			line = strings.TrimPrefix(line, "require ")
		case !inBlock:
			continue
		}
		if line == "" || strings.Contains(line, "// indirect") {
			continue
		}
		direct++
		if path := strings.Fields(line)[0]; !strings.Contains(table, "`"+path+"`") {
			t.Errorf("the README's dependency table does not name %s", path)
		}
	}
	if direct == 0 {
		t.Fatal("found no direct requirement in go.mod")
	}
}
