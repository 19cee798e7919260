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

// entryName matches an entry point as a doc lists it: a declared name, or
// Type.Method.
var entryName = regexp.MustCompile(`\b[A-Z][A-Za-z0-9]*(\.[A-Z][A-Za-z0-9]*)?\b`)

// TestDocStageMapNamesPackagesAndEntryPointsThatExist: the stage map in
// doc.go names a package and entry points per stage; each package must
// exist and declare each entry point, so the map cannot quietly go stale
// when code moves.
func TestDocStageMapNamesPackagesAndEntryPointsThatExist(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(src), "//\tstage           package")
	if !ok {
		t.Fatal("doc.go has no stage map")
	}
	table, _, _ = strings.Cut(table, "\n//\n")
	rows := strings.Split(table, "\n")[1:]
	if len(rows) < 8 {
		t.Fatalf("the stage map has %d rows; its layout changed", len(rows))
	}
	for _, row := range rows {
		fields := regexp.MustCompile(`\s{2,}`).Split(strings.TrimPrefix(row, "//\t"), -1)
		if len(fields) != 3 {
			t.Fatalf("stage map row %q: want stage, package and entry points", row)
		}
		dir := "." + strings.TrimPrefix(fields[1], "servebench")
		declared := declaredIn(t, dir)
		for _, n := range entryName.FindAllString(fields[2], -1) {
			if !declared[n] {
				t.Errorf("the stage map names %s in %s, which does not declare it", n, fields[1])
			}
		}
	}
}

// TestEveryPackageDocLeadsWithEntryPointsThatExist: each package of the
// core has a doc.go whose "Entry points:" block names only what the
// package declares.
func TestEveryPackageDocLeadsWithEntryPointsThatExist(t *testing.T) {
	dirs, err := filepath.Glob("*/doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"record", "schedule", "openai", "report", "score", "enginemetrics", "capacity"} {
		if _, err := os.Stat(filepath.Join(want, "doc.go")); err != nil {
			t.Errorf("package %s has no doc.go", want)
		}
	}
	checked := 0
	for _, doc := range dirs {
		src, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		_, block, ok := strings.Cut(string(src), "// Entry points:\n//\n")
		if !ok {
			continue
		}
		block, _, _ = strings.Cut(block, "\n//\n")
		declared := declaredIn(t, filepath.Dir(doc))
		for _, line := range strings.Split(block, "\n") {
			left := regexp.MustCompile(`\s{2,}`).Split(strings.TrimPrefix(line, "//\t"), 2)[0]
			for _, n := range entryName.FindAllString(left, -1) {
				if !declared[n] {
					t.Errorf("%s lists %s as an entry point, which its package does not declare", doc, n)
				}
				checked++
			}
		}
	}
	if checked < 40 {
		t.Fatalf("checked only %d entry points; the docs' layout changed", checked)
	}
}

// declaredIn lists the names the non-test files of dir declare: types,
// functions, variables, constants, and methods as Type.Method.
func declaredIn(t *testing.T, dir string) map[string]bool {
	t.Helper()
	sources, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(sources) == 0 {
		t.Fatalf("package directory %s: no Go files (%v)", dir, err)
	}
	declared := map[string]bool{}
	fset := token.NewFileSet()
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
					switch g := recv.(type) { // a generic type's receiver
					case *ast.IndexExpr:
						recv = g.X
					case *ast.IndexListExpr:
						recv = g.X
					}
					name = recv.(*ast.Ident).Name + "." + name
				}
				declared[name] = true
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						declared[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range s.Names {
							declared[n.Name] = true
						}
					}
				}
			}
		}
	}
	return declared
}
