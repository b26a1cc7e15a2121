package apierr_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// usedCodes returns every code the Go source uses: the Code… constants of this package and
// every string literal given as a Code field (apierr.Error{Code: "…"}), as NewCode's last
// argument or NotEnoughOf's first, anywhere under root.
func usedCodes(t *testing.T, root string) map[string]string {
	t.Helper()
	used := map[string]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", "ui", "e2e", ".git", "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		lit := func(e ast.Expr) {
			if b, ok := e.(*ast.BasicLit); ok && b.Kind == token.STRING {
				if s, err := strconv.Unquote(b.Value); err == nil && s != "" {
					used[s] = path
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec: // const CodeX = "…"
				for i, name := range n.Names {
					if strings.HasPrefix(name.Name, "Code") && i < len(n.Values) {
						lit(n.Values[i])
					}
				}
			case *ast.KeyValueExpr: // Code: "…"
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "Code" {
					lit(n.Value)
				}
			case *ast.CallExpr: // NewCode(status, field, message, "…")
				name := ""
				switch fn := n.Fun.(type) {
				case *ast.Ident:
					name = fn.Name
				case *ast.SelectorExpr:
					name = fn.Sel.Name
				}
				switch {
				case name == "NewCode" && len(n.Args) == 4:
					lit(n.Args[3])
				case name == "NotEnoughOf" && len(n.Args) == 2:
					lit(n.Args[0])
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return used
}

// docs/errors.md lists every code the code base can answer with.
func TestErrorsTableListsEveryCode(t *testing.T) {
	raw, err := os.ReadFile("../../docs/errors.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\| ([0-9]{3}) \\|")
	listed := map[string]bool{}
	for _, m := range row.FindAllStringSubmatch(string(raw), -1) {
		listed[m[1]] = true
	}
	used := usedCodes(t, "../..")
	if len(used) < 20 {
		t.Fatalf("found only %d codes in the source: %v", len(used), used)
	}
	for code, where := range used {
		if !listed[code] {
			t.Errorf("code %q (%s) is not in docs/errors.md's table", code, where)
		}
	}
}
