package main

import (
	"encoding/xml"
	"fmt"
	"strings"

	"github.com/servebench/servebench/internal/safefile"
	"github.com/servebench/servebench/suites"
)

// The JUnit XML that CI systems read (Jenkins, GitLab, GitHub test
// reporters): a testsuites root, a testsuite per contract and a testcase
// per objective, with a failure or skipped child.
type (
	junitTestSuites struct {
		XMLName  xml.Name         `xml:"testsuites"`
		Name     string           `xml:"name,attr"`
		Tests    int              `xml:"tests,attr"`
		Failures int              `xml:"failures,attr"`
		Errors   int              `xml:"errors,attr"`
		Skipped  int              `xml:"skipped,attr"`
		Time     string           `xml:"time,attr"`
		Suites   []junitTestSuite `xml:"testsuite"`
	}
	junitTestSuite struct {
		Name      string          `xml:"name,attr"`
		Package   string          `xml:"package,attr"`
		Tests     int             `xml:"tests,attr"`
		Failures  int             `xml:"failures,attr"`
		Errors    int             `xml:"errors,attr"`
		Skipped   int             `xml:"skipped,attr"`
		Time      string          `xml:"time,attr"`
		Timestamp string          `xml:"timestamp,attr"`
		Cases     []junitTestCase `xml:"testcase"`
	}
	junitTestCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		File      string        `xml:"file,attr,omitempty"`
		Line      int           `xml:"line,attr,omitempty"`
		Time      string        `xml:"time,attr"`
		Failure   *junitFailure `xml:"failure,omitempty"`
		Skipped   *junitSkipped `xml:"skipped,omitempty"`
		SystemOut string        `xml:"system-out,omitempty"`
	}
	junitFailure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
	junitSkipped struct {
		Message string `xml:"message,attr"`
	}
)

// checkJUnit is the JUnit report of the results: the failure's message
// attribute is its first line ("file:line: objective"), its text the whole
// message, and its type what the failure's exit code means.
func checkJUnit(results []contractResult) junitTestSuites {
	root := junitTestSuites{Name: "servebench check"}
	var total float64
	for _, r := range results {
		s := junitTestSuite{Name: r.contract.Name, Package: r.contract.Path, Time: seconds(r.took.Seconds()),
			Timestamp: r.started.UTC().Format("2006-01-02T15:04:05")}
		total += r.took.Seconds()
		for _, v := range r.verdicts {
			tc := junitTestCase{Name: v.Name, Classname: r.contract.Name, File: v.At.FileName, Line: v.At.LineNumber, Time: "0"}
			if v.LoadPoint != "" {
				tc.Name = v.LoadPoint + ": " + v.Name
			}
			switch v.Outcome {
			case suites.Failed:
				first, _, _ := strings.Cut(v.Message, "\n")
				tc.Failure = &junitFailure{Message: first, Type: checkExitMeaning[v.ExitCode], Text: v.Message}
				s.Failures++
			case suites.Skipped:
				tc.Skipped = &junitSkipped{Message: v.Message}
				s.Skipped++
			case suites.Unjudged:
				tc.Skipped = &junitSkipped{Message: "unjudged: " + v.Message}
				s.Skipped++
			case suites.Informational:
				tc.SystemOut = "informational (tier " + v.Tier + ", above the enforced tier): " + v.Message
			}
			s.Tests++
			s.Cases = append(s.Cases, tc)
		}
		root.Tests += s.Tests
		root.Failures += s.Failures
		root.Skipped += s.Skipped
		root.Suites = append(root.Suites, s)
	}
	root.Time = seconds(total)
	return root
}

// seconds renders a duration in seconds as JUnit does: "12.345".
func seconds(s float64) string { return fmt.Sprintf("%.3f", s) }

// writeCheckJUnit writes the results' JUnit report to path.
func writeCheckJUnit(path string, results []contractResult) error {
	b, err := xml.MarshalIndent(checkJUnit(results), "", "  ")
	if err != nil {
		return fmt.Errorf("--junit: %w", err)
	}
	if err := safefile.WriteFile(path, append([]byte(xml.Header), append(b, '\n')...)); err != nil {
		return fmt.Errorf("--junit: %w", err)
	}
	return nil
}
