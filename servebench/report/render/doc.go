// Package render writes a report.Report for people: the text summary a
// run prints, and report.html, the self-contained page (no script, no
// external font or style sheet) with its inline SVG charts. Both read the
// report and change nothing in it; the model and its queries stay in
// package report.
//
// Entry points:
//
//	Text       the text summary: every rate beside its numerator and denominator
//	HTML       the page, to a writer
//	HTMLFile   the page, to a file (report.html in a run directory)
//
// The page templates are in templates/, embedded in the binary.
package render
