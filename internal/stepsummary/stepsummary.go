// Package stepsummary writes the markdown verdicts that CI systems show
// beside a job: GitHub Actions appends the file named by
// $GITHUB_STEP_SUMMARY to the job's summary page, and Buildkite users pass
// the same file to `buildkite-agent annotate`. A command collects its
// verdict as markdown and appends it to every file Paths names.
package stepsummary

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// EnvVar names the environment variable GitHub Actions sets to the step's
// summary file.
const EnvVar = "GITHUB_STEP_SUMMARY"

// Paths returns the files a verdict is appended to: flag (the command's
// --step-summary), then $GITHUB_STEP_SUMMARY from getenv, each once and
// leaving out the empty ones.
func Paths(flag string, getenv func(string) string) []string {
	var out []string
	for _, p := range []string{flag, getenv(EnvVar)} {
		if p != "" && (len(out) == 0 || out[0] != p) {
			out = append(out, p)
		}
	}
	return out
}

// Append appends markdown to each file of paths, creating the ones that do
// not exist; every failure is returned, naming its file.
func Append(paths []string, markdown string) error {
	var errs []error
	for _, p := range paths {
		if err := appendFile(p, markdown); err != nil {
			errs = append(errs, fmt.Errorf("step summary %s: %w", p, err))
		}
	}
	return errors.Join(errs...)
}

// appendFile appends s to the file at path.
func appendFile(path, s string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(s)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Table renders a markdown table with header as its first row. A cell's
// "|" is escaped and its line breaks become spaces, so that each row stays
// one table row; an empty cell is shown as "–".
func Table(header []string, rows [][]string) string {
	var b strings.Builder
	row := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + Cell(c) + " |")
		}
		b.WriteString("\n")
	}
	row(header)
	b.WriteString("|" + strings.Repeat(" --- |", len(header)) + "\n")
	for _, r := range rows {
		row(r)
	}
	return b.String()
}

// Cell makes s safe inside a table cell: "|" escaped, line breaks as
// spaces, and "–" for an empty cell.
func Cell(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "–"
	}
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\r", "")), " ")
}

// Details renders a collapsed section: summary, then body as a fenced
// block, for a failure's full message below its table.
func Details(summary, body string) string {
	fence := "```"
	for strings.Contains(body, fence) {
		fence += "`"
	}
	return fmt.Sprintf("<details><summary>%s</summary>\n\n%s\n%s\n%s\n\n</details>\n", escapeHTML(summary), fence, strings.TrimRight(body, "\n"), fence)
}

// escapeHTML escapes the characters that HTML reads in a summary.
func escapeHTML(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
