package servebench_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The stage map in doc.go names files and entry points; each must exist, so
// the map cannot quietly go stale when code moves.
func TestDocStageMapNamesFilesAndEntryPointsThatExist(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(src), "//\tstage      entry point")
	if !ok {
		t.Fatal("doc.go has no stage map")
	}
	table, _, _ = strings.Cut(table, "\n//\n")

	declared := map[string]bool{}
	fset := token.NewFileSet()
	sources, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range sources {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				name := d.Name.Name
				if d.Recv != nil {
					recv := d.Recv.List[0].Type
					if star, ok := recv.(*ast.StarExpr); ok {
						recv = star.X
					}
					name = recv.(*ast.Ident).Name + "." + name
				}
				declared[name] = true
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						declared[ts.Name.Name] = true
					}
				}
			}
		}
	}

	files := regexp.MustCompile(`[a-z_*]+\.go`)
	names := regexp.MustCompile(`\b[A-Z][A-Za-z]*(\.[A-Z][A-Za-z]*)?\b`)
	var checked int
	for _, line := range strings.Split(table, "\n")[1:] {
		line = strings.TrimPrefix(line, "//\t")
		for _, f := range files.FindAllString(line, -1) {
			if m, _ := filepath.Glob(f); len(m) == 0 {
				t.Errorf("the stage map names %s, which does not exist", f)
			}
			checked++
		}
		entry := line
		if len(entry) > 53 {
			entry = entry[:53]
		}
		for _, n := range names.FindAllString(entry, -1) {
			if !declared[n] {
				t.Errorf("the stage map names %s, which package servebench does not declare", n)
			}
			checked++
		}
	}
	if checked < 30 {
		t.Fatalf("checked only %d names; the map's layout changed", checked)
	}
}
