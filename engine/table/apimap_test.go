package table

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// goPackages maps the package names used in API.md to directories
// relative to engine/table.
var goPackages = map[string]string{
	"table":       ".",
	"datatypes":   "datatypes",
	"descriptors": "descriptors",
	"common":      "../common",
	"config":      "../config",
	"catalog":     "../catalog",
	"types":       "../types",
	"expr":        "../expr",
}

// declared lists the exported top-level names ("Name") and methods
// ("Type.Method") of a package directory (test files excluded).
func declared(t *testing.T, dir string) map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatalf("parse %s: %v", dir, err)
	}
	out := map[string]bool{}
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, d := range f.Decls {
				switch x := d.(type) {
				case *ast.FuncDecl:
					if !x.Name.IsExported() {
						continue
					}
					if x.Recv == nil {
						out[x.Name.Name] = true
						continue
					}
					rt := x.Recv.List[0].Type
					if s, ok := rt.(*ast.StarExpr); ok {
						rt = s.X
					}
					if ix, ok := rt.(*ast.IndexExpr); ok {
						rt = ix.X
					}
					if ix, ok := rt.(*ast.IndexListExpr); ok {
						rt = ix.X
					}
					if id, ok := rt.(*ast.Ident); ok {
						out[id.Name+"."+x.Name.Name] = true
					}
				case *ast.GenDecl:
					for _, s := range x.Specs {
						switch sp := s.(type) {
						case *ast.TypeSpec:
							out[sp.Name.Name] = true
							aliasMethods(t, out, sp)
							if st, ok := sp.Type.(*ast.StructType); ok {
								for _, f := range st.Fields.List {
									for _, n := range f.Names {
										if n.IsExported() {
											out[sp.Name.Name+"."+n.Name] = true
										}
									}
								}
							}
							if it, ok := sp.Type.(*ast.InterfaceType); ok {
								for _, m := range it.Methods.List {
									for _, n := range m.Names {
										out[sp.Name.Name+"."+n.Name] = true
									}
								}
							}
						case *ast.ValueSpec:
							for _, n := range sp.Names {
								out[n.Name] = true
							}
						}
					}
				}
			}
		}
	}
	return out
}

// aliasMethods adds the methods of the type an alias names in another
// package of goPackages (common.JobStatus = runtime.JobStatus has
// runtime.JobStatus's methods) as the alias's, e.g. "JobStatus.IsTerminal".
func aliasMethods(t *testing.T, out map[string]bool, sp *ast.TypeSpec) {
	sel, ok := sp.Type.(*ast.SelectorExpr)
	if !sp.Assign.IsValid() || !ok {
		return
	}
	pkg, ok := sel.X.(*ast.Ident)
	dir, known := goPackages[pkg.Name]
	if !ok || !known {
		return
	}
	prefix := sel.Sel.Name + "."
	for id := range declared(t, dir) {
		if m, ok := strings.CutPrefix(id, prefix); ok {
			out[sp.Name.Name+"."+m] = true
		}
	}
}

var (
	apiRow   = regexp.MustCompile(`^\| *(\S+) *\|(.*)\|(.*)\|$`)
	goRef    = regexp.MustCompile("`([a-z]+)\\.([A-Za-z0-9_]+)(?:\\.([A-Za-z0-9_]+))?`")
	countDir = regexp.MustCompile(`<!-- seed members: (\d+) -->`)
)

// TestAPIMapping keeps docs/API.md and the code in step: every row maps a
// PyFlink class, method or constant of the seed inventory either to Go
// identifiers that exist, or to "n/a" with a reason; and the table has a
// row for every seed member.
func TestAPIMapping(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "docs", "API.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	decls := map[string]map[string]bool{}
	for name, dir := range goPackages {
		decls[name] = declared(t, dir)
	}
	compat := map[string]map[string]bool{}
	for _, name := range []string{"table", "common"} {
		compat[name] = declaredIn(t, filepath.Join(goPackages[name], "pyflink_names.go"))
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	rows, na, want := 0, 0, -1
	seen := map[string]bool{}
	for sc.Scan() {
		line := sc.Text()
		if m := countDir.FindStringSubmatch(line); m != nil {
			want, _ = strconv.Atoi(m[1])
		}
		m := apiRow.FindStringSubmatch(line)
		if m == nil || !(strings.HasPrefix(m[1], "pyflink.") || strings.HasPrefix(m[1], "py:")) {
			continue
		}
		name, goCol, note := m[1], strings.TrimSpace(m[2]), strings.TrimSpace(m[3])
		checkLayers(t, name, line, compat)
		if seen[name] {
			t.Errorf("%s is listed twice", name)
		}
		seen[name] = true
		if strings.HasPrefix(name, "pyflink.") {
			rows++
		}
		if strings.HasPrefix(goCol, "n/a") {
			if strings.HasPrefix(name, "pyflink.") {
				na++
			}
			if note == "" {
				t.Errorf("%s: n/a without a reason", name)
			}
			continue
		}
		refs := goRef.FindAllStringSubmatch(goCol, -1)
		if len(refs) == 0 {
			t.Errorf("%s: no Go identifier in %q", name, goCol)
		}
		for _, r := range refs {
			pkg, ok := decls[r[1]]
			if !ok {
				t.Errorf("%s: unknown package %s in %s", name, r[1], r[0])
				continue
			}
			id := r[2]
			if r[3] != "" {
				id += "." + r[3]
			}
			if !pkg[id] {
				t.Errorf("%s: %s does not exist", name, r[0])
			}
		}
	}
	if want < 0 {
		t.Fatal("API.md lacks the seed member count marker")
	}
	if rows < want {
		t.Errorf("API.md maps %d seed members, the seed inventory has %d", rows, want)
	}
	t.Logf("%d rows, %d implemented, %d not applicable", rows, rows-na, na)
}

// checkLayers checks a row's Go and Compatibility name columns (| PyFlink
// | Go | Compatibility name | Notes |): the Go column names the Go-first
// API, so none of its identifiers is declared in a compatibility layer
// (pyflink_names.go) unless the row says "none (no-op)"; the
// compatibility column is "same", "n/a" or identifiers.
func checkLayers(t *testing.T, name, line string, compat map[string]map[string]bool) {
	t.Helper()
	cols := strings.Split(strings.Trim(line, "|"), "|")
	if len(cols) != 4 {
		t.Errorf("%s: want 4 columns (PyFlink, Go, Compatibility name, Notes), got %d", name, len(cols))
		return
	}
	goCol, compatCol := strings.TrimSpace(cols[1]), strings.TrimSpace(cols[2])
	if compatCol == "" {
		t.Errorf("%s: empty Compatibility name column (same, n/a or the names)", name)
	}
	if goCol == "none (no-op)" {
		if len(goRef.FindAllString(compatCol, -1)) == 0 {
			t.Errorf("%s: a no-op without its compatibility name", name)
		}
		return
	}
	for _, r := range goRef.FindAllStringSubmatch(goCol, -1) {
		id := r[2]
		if r[3] != "" {
			id += "." + r[3]
		}
		if compat[r[1]][id] {
			t.Errorf("%s: %s in the Go column is declared in the compatibility layer", name, r[0])
		}
	}
}

// declaredIn lists the exported names and methods ("Type.Method") one
// file declares.
func declaredIn(t *testing.T, file string) map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !fd.Name.IsExported() {
			continue
		}
		if fd.Recv == nil {
			out[fd.Name.Name] = true
			continue
		}
		rt := fd.Recv.List[0].Type
		if st, ok := rt.(*ast.StarExpr); ok {
			rt = st.X
		}
		if id, ok := rt.(*ast.Ident); ok {
			out[id.Name+"."+fd.Name.Name] = true
		}
	}
	return out
}

// TestExportedDocs checks that every exported identifier of the Table API
// packages has a doc comment.
func TestExportedDocs(t *testing.T) {
	for _, dir := range []string{".", "datatypes", "descriptors", "../common", "../config", "../catalog"} {
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pkgs {
			for fn, f := range p.Files {
				for _, d := range f.Decls {
					switch x := d.(type) {
					case *ast.FuncDecl:
						if x.Recv != nil && (x.Name.Name == "String" || x.Name.Name == "Error" || x.Name.Name == "Unwrap") {
							continue // the standard interfaces document themselves
						}
						if x.Name.IsExported() && x.Doc == nil && (x.Recv == nil || exportedRecv(x)) {
							t.Errorf("%s: func %s has no doc comment", fn, x.Name.Name)
						}
					case *ast.GenDecl:
						for _, s := range x.Specs {
							switch sp := s.(type) {
							case *ast.TypeSpec:
								if sp.Name.IsExported() && sp.Doc == nil && x.Doc == nil {
									t.Errorf("%s: type %s has no doc comment", fn, sp.Name.Name)
								}
							case *ast.ValueSpec:
								for _, n := range sp.Names {
									if n.IsExported() && sp.Doc == nil && x.Doc == nil && sp.Comment == nil {
										t.Errorf("%s: %s has no doc comment", fn, n.Name)
									}
								}
							}
						}
					}
				}
			}
		}
	}
}

func exportedRecv(f *ast.FuncDecl) bool {
	rt := f.Recv.List[0].Type
	if s, ok := rt.(*ast.StarExpr); ok {
		rt = s.X
	}
	if ix, ok := rt.(*ast.IndexExpr); ok {
		rt = ix.X
	}
	if ix, ok := rt.(*ast.IndexListExpr); ok {
		rt = ix.X
	}
	id, ok := rt.(*ast.Ident)
	return ok && id.IsExported()
}

// TestSeedExamplesCovered checks that every documented example with an
// expected result in the seed inventory (§6: E-01 to E-98, E-ROUND,
// E-PATH, E-RSCHEMA) has a Go example naming it (in example_*_test.go,
// including those built only with the riffle_sqlfull and riffle_streaming
// tags).
func TestSeedExamplesCovered(t *testing.T) {
	files, err := filepath.Glob("example_*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	text := all.String()
	want := []string{"E-ROUND", "E-PATH", "E-RSCHEMA"}
	for i := 1; i <= 98; i++ {
		want = append(want, "E-"+strconv.Itoa(i/10)+strconv.Itoa(i%10))
	}
	for _, id := range want {
		if !regexp.MustCompile(regexp.QuoteMeta(id) + `\b`).MatchString(text) {
			t.Errorf("no example for %s", id)
		}
	}
	examples := strings.Count(text, "\nfunc Example")
	if examples < 60 {
		t.Errorf("%d examples, want at least 60", examples)
	}
	t.Logf("%d examples", examples)
}
