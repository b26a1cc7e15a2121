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

// requestHook matches the record API's request hooks (OnRecordCreateRequest,
// OnRecordsListRequest, …): they run only for PocketBase's own routes (the /_/ dashboard's
// door), never for a service's save nor the ledger's statements, so the raw-data guards in
// hooks/ bind them on the ledger tables too, and on every collection at once.
var requestHook = regexp.MustCompile(`^On(Record|Records)\w*Request$`)

// recordHook matches the record hooks that run inside a save (OnRecordCreate, OnRecordUpdate,
// OnRecordAfterDeleteSuccess, …): the hooks that guard an invariant for every writer. They
// live in hooks/ (DESIGN.md §1); a module's model hooks (OnModel…) only keep its caches fresh.
var recordHook = regexp.MustCompile(`^OnRecord[A-Z]\w*$`)

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
		if !ok || !collectionHook.MatchString(sel.Sel.Name) || requestHook.MatchString(sel.Sel.Name) {
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
	for _, dir := range []string{"hooks", "modules", "lib", "pb_app", "pb_migrations", "internal"} {
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
	app.OnRecordUpdateRequest().BindFunc(nil)
	app.OnRecordDeleteRequest(schema.Movements).BindFunc(nil)
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

// recordHookViolations lists the record hooks (recordHook) bound in f: outside hooks/ each is
// an invariant guard out of its place.
func recordHookViolations(fset *token.FileSet, rel string, f *ast.File) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if ok && recordHook.MatchString(sel.Sel.Name) {
			out = append(out, fmt.Sprintf("%s:%d: %s is a record hook: hooks that guard an invariant live in hooks/ (bound from hooks.Register)", rel, fset.Position(call.Pos()).Line, sel.Sel.Name))
		}
		return true
	})
	return out
}

// TestRecordHooksLiveInHooks: every record hook (one that runs inside a save, whatever the door)
// is bound in hooks/, named, so a reader finds every invariant guard in one folder; request
// hooks outside it are refused too, since they guard the record API's door.
func TestRecordHooksLiveInHooks(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	inHooks := 0
	for _, dir := range []string{"hooks", "modules", "lib", "pb_app", "pb_migrations"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			found := recordHookViolations(fset, filepath.ToSlash(rel), f)
			if dir == "hooks" {
				inHooks += len(found)
				return nil
			}
			for _, v := range found {
				t.Error(v)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if inHooks == 0 {
		t.Fatal("no record hook found in hooks/: the walk is broken")
	}
}

// TestRecordHookGuardCatchesViolations proves the rule can fail, on a fake source.
func TestRecordHookGuardCatchesViolations(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", `package x

func register(app core.App) {
	app.OnRecordUpdate(schema.Users).BindFunc(nil)
	app.OnRecordCreateRequest().BindFunc(nil)
	app.OnModelUpdate(schema.Settings).BindFunc(nil)
	app.OnServe().BindFunc(nil)
}
`, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := recordHookViolations(fset, "x.go", f); len(got) != 2 {
		t.Fatalf("found %d record hooks, want 2 (OnRecordUpdate, OnRecordCreateRequest):\n%s", len(got), strings.Join(got, "\n"))
	}
}
