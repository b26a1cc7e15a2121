package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// ledgerTables are the collections the ledger writes with plain statements
// (modules/inventory/store.go): PocketBase's record and model hooks never run for those writes,
// so a hook bound on them would be silently skipped by every ledger change.
var ledgerTables = map[string]bool{"Movements": true, "Entries": true, "Accounts": true}

// collectionHook matches PocketBase's per-collection hooks (OnRecordCreate, OnModelAfter…,
// OnRecordEnrich, OnRecordsListRequest, …): their arguments name the collections they run for.
var collectionHook = regexp.MustCompile(`^On(Record|Records|Model)[A-Z]\w*$`)

// hookViolations lists the per-collection hook bindings of f that may run on a ledger table:
// one naming Movements, Entries or Accounts, one naming no collection (it runs for every
// collection), and one naming its collections other than as schema constants (a variable
// could hold a ledger table).
func hookViolations(fset *token.FileSet, rel string, f *ast.File) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || !collectionHook.MatchString(sel.Sel.Name) {
			return true
		}
		at := fmt.Sprintf("%s:%d: %s", rel, fset.Position(call.Pos()).Line, sel.Sel.Name)
		if len(call.Args) == 0 {
			out = append(out, at+" names no collection, so it runs for the ledger tables too: name the collections")
			return true
		}
		if call.Ellipsis.IsValid() {
			out = append(out, at+" takes its collections from a list: name each as a schema constant")
			return true
		}
		for _, arg := range call.Args {
			c, ok := arg.(*ast.SelectorExpr)
			if ok {
				pkg, isIdent := c.X.(*ast.Ident)
				ok = isIdent && pkg.Name == "schema"
			}
			if !ok {
				out = append(out, at+" names a collection other than as a schema constant")
				continue
			}
			if ledgerTables[c.Sel.Name] {
				out = append(out, at+" is bound on schema."+c.Sel.Name+", whose rows the ledger writes without running hooks")
			}
		}
		return true
	})
	return out
}

// TestNoHookOnLedgerTables is the hook guard: the ledger's writes bypass PocketBase's record
// hooks (one store, modules/inventory/store.go), so no code may bind one on movements, entries
// or accounts, where it would silently not run. Services publish their changes instead.
func TestNoHookOnLedgerTables(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := 0
	for _, dir := range []string{"modules", "lib", "pb_app", "pb_migrations", "internal"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			files++
			rel, _ := filepath.Rel(root, path)
			for _, v := range hookViolations(fset, filepath.ToSlash(rel), f) {
				t.Error(v)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files == 0 {
		t.Fatal("no Go files found")
	}
}

// TestHookGuardCatchesViolations proves the guard can fail, on a fake source.
func TestHookGuardCatchesViolations(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", `package x

func register(app core.App) {
	app.OnRecordAfterCreateSuccess(schema.Movements).BindFunc(nil)
	app.OnModelUpdate(schema.Users, schema.Accounts).BindFunc(nil)
	app.OnRecordDelete().BindFunc(nil)
	app.OnModelCreate(watched...).BindFunc(nil)
	app.OnRecordValidate("entries").BindFunc(nil)
	app.OnRecordUpdate(schema.Users).BindFunc(nil)
	app.OnServe().BindFunc(nil)
}
`, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := hookViolations(fset, "x.go", f)
	if len(got) != 5 {
		t.Fatalf("the guard found %d violations, want 5 (Movements, Accounts, no collection, a list, a literal):\n%s", len(got), strings.Join(got, "\n"))
	}
}
