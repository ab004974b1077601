package table

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

var delegatesTo = regexp.MustCompile(`^(\w+) delegates to (\w+)\b`)

// TestCompatibilityLayerIsThin checks engine/table's and engine/common's
// pyflink_names.go: each method there either delegates to the Go-first
// method its doc comment names (declared outside the file, on the same
// type, and called by the body), or is a PyFlink switch without a Go-first
// name, whose doc says so ("no-op", "no Go-first name", "Deprecated").
func TestCompatibilityLayerIsThin(t *testing.T) {
	for _, dir := range []string{".", filepath.Join("..", "common")} {
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		primary := map[string]bool{} // "Type.Method" declared outside pyflink_names.go
		var compat []*ast.FuncDecl
		for _, p := range pkgs {
			for fn, f := range p.Files {
				for _, d := range f.Decls {
					fd, ok := d.(*ast.FuncDecl)
					if !ok || fd.Recv == nil || !fd.Name.IsExported() {
						continue
					}
					if filepath.Base(fn) == "pyflink_names.go" {
						compat = append(compat, fd)
						continue
					}
					primary[recvName(fd)+"."+fd.Name.Name] = true
				}
			}
		}
		if len(compat) == 0 {
			t.Fatalf("%s: no compatibility layer (pyflink_names.go)", dir)
		}
		for _, fd := range compat {
			name := recvName(fd) + "." + fd.Name.Name
			doc := fd.Doc.Text()
			m := delegatesTo.FindStringSubmatch(doc)
			if m == nil {
				if !strings.Contains(doc, "no-op") && !strings.Contains(doc, "no Go-first name") && !strings.Contains(doc, "Deprecated") {
					t.Errorf("%s: %s neither delegates nor is a documented no-op or deprecated switch", dir, name)
				}
				continue
			}
			target := recvName(fd) + "." + m[2]
			if !primary[target] {
				t.Errorf("%s: %s delegates to %s, which is not declared outside pyflink_names.go", dir, name, target)
			}
			if len(fd.Body.List) > 4 || !calls(fd.Body, m[2]) {
				t.Errorf("%s: %s is not a thin delegation to %s", dir, name, m[2])
			}
		}
	}
}

func recvName(fd *ast.FuncDecl) string {
	rt := fd.Recv.List[0].Type
	if s, ok := rt.(*ast.StarExpr); ok {
		rt = s.X
	}
	if id, ok := rt.(*ast.Ident); ok {
		return id.Name
	}
	return "?"
}

// calls reports whether body calls a method named name.
func calls(body *ast.BlockStmt, name string) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if s, ok := c.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == name {
				found = true
			}
		}
		return !found
	})
	return found
}
