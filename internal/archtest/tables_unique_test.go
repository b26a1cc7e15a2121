package archtest

import (
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestReasonTablesHaveUniqueKeys fails when a map literal in this package's tables names a key
// twice (moduleImports, tableOwners, …): Go keeps the last value of a repeated array key
// without a word, so the first reason would be lost.
func TestReasonTablesHaveUniqueKeys(t *testing.T) {
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			if _, isMap := lit.Type.(*ast.MapType); !isMap {
				return true
			}
			seen := map[string]token.Position{}
			for _, el := range lit.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				var key strings.Builder
				if err := printer.Fprint(&key, fset, kv.Key); err != nil {
					t.Fatal(err)
				}
				if first, dup := seen[key.String()]; dup {
					t.Errorf("%s: key %s is already at line %d", fset.Position(kv.Pos()), key.String(), first.Line)
				}
				seen[key.String()] = fset.Position(kv.Pos())
			}
			return true
		})
	}
}
