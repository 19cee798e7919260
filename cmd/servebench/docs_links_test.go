package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// headingAnchor is the anchor GitHub gives a Markdown heading's text:
// lower case, punctuation other than '-' and '_' dropped, spaces as '-'.
func headingAnchor(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestDocsLinksResolve: every relative link of README.md and docs/*.md
// names a file of the repository and, with a #fragment into a Markdown
// file, one of its headings.
func TestDocsLinksResolve(t *testing.T) {
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, "../../README.md")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading := regexp.MustCompile(`(?m)^#+ (.+)$`)
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(data), -1) {
			target, fragment, _ := strings.Cut(m[1], "#")
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path := page
			if target != "" {
				path = filepath.Join(filepath.Dir(page), target)
			}
			text, err := os.ReadFile(path)
			if err != nil {
				if info, statErr := os.Stat(path); statErr == nil && info.IsDir() {
					continue
				}
				t.Errorf("%s: link %s: %v", page, m[1], err)
				continue
			}
			if fragment == "" || !strings.HasSuffix(path, ".md") {
				continue
			}
			found := false
			for _, h := range heading.FindAllStringSubmatch(string(text), -1) {
				found = found || headingAnchor(h[1]) == fragment
			}
			if !found {
				t.Errorf("%s: link %s: %s has no heading with anchor #%s", page, m[1], path, fragment)
			}
		}
	}
}

// TestDocsIndexListsEveryPage: docs/README.md links every page of docs/.
func TestDocsIndexListsEveryPage(t *testing.T) {
	index := readRepoFile(t, "docs/README.md")
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range pages {
		name := filepath.Base(page)
		if name != "README.md" && !strings.Contains(index, "]("+name+")") {
			t.Errorf("docs/README.md does not link %s", name)
		}
	}
}
