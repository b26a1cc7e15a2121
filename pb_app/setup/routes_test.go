package setup_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// binding is one mutation route as its module binds it: method, full path, and the
// idempotency policy bound on it (Keyed, Grouped or Skip) with Skip's reason.
type binding struct {
	file, method, path string
	policies           []string
	reason             string
}

func (b binding) name() string { return b.method + " " + b.path }

var mutations = map[string]bool{"POST": true, "PUT": true, "PATCH": true, "DELETE": true}

// bindings reads every mutation route bound in the Go files under dir: a call
// R.POST("/path", h) (PUT, PATCH, DELETE) on se.Router or a group made in the same function
// with R.Group("/prefix"), and the idempotency policies of the .Bind(…) chained on it.
func bindings(t *testing.T, dir string) []binding {
	t.Helper()
	var out []binding
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		out = append(out, fileBindings(filepath.ToSlash(rel), f)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func fileBindings(file string, f *ast.File) []binding {
	prefixes := map[string]string{} // group variable → its path prefix
	prefixOf := func(x ast.Expr) (string, bool) {
		switch v := x.(type) {
		case *ast.SelectorExpr: // se.Router
			return "", v.Sel.Name == "Router"
		case *ast.Ident:
			p, ok := prefixes[v.Name]
			return p, ok
		}
		return "", false
	}
	literal := func(e ast.Expr) (string, bool) {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(lit.Value)
		return s, err == nil
	}
	// route returns the binding of a call R.METHOD("/path", h), else nil
	route := func(call *ast.CallExpr) *binding {
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || !mutations[sel.Sel.Name] || len(call.Args) != 2 {
			return nil
		}
		prefix, ok := prefixOf(sel.X)
		path, isLit := literal(call.Args[0])
		if !ok || !isLit {
			return nil
		}
		return &binding{file: file, method: sel.Sel.Name, path: prefix + path}
	}
	var out []binding
	bound := map[*ast.CallExpr]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch v := n.(type) {
		case *ast.AssignStmt: // g := R.Group("/prefix")
			if len(v.Lhs) == 1 && len(v.Rhs) == 1 {
				if call, ok := v.Rhs[0].(*ast.CallExpr); ok {
					if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Group" && len(call.Args) == 1 {
						prefix, ok := prefixOf(sel.X)
						p, isLit := literal(call.Args[0])
						if id, isId := v.Lhs[0].(*ast.Ident); ok && isLit && isId {
							prefixes[id.Name] = prefix + p
						}
					}
				}
			}
		case *ast.CallExpr:
			if sel, ok := v.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Bind" {
				if inner, ok := sel.X.(*ast.CallExpr); ok {
					if b := route(inner); b != nil {
						bound[inner] = true
						for _, arg := range v.Args {
							call, ok := arg.(*ast.CallExpr)
							if !ok {
								continue
							}
							if s, ok := call.Fun.(*ast.SelectorExpr); ok {
								if pkg, ok := s.X.(*ast.Ident); ok && pkg.Name == "idempotency" {
									b.policies = append(b.policies, s.Sel.Name)
									if s.Sel.Name == "Skip" && len(call.Args) == 1 {
										b.reason, _ = literal(call.Args[0])
									}
								}
							}
						}
						out = append(out, *b)
					}
				}
			}
			if b := route(v); b != nil && !bound[v] {
				out = append(out, *b) // not chained with .Bind: no policy
			}
		}
		return true
	})
	return out
}

// TestEveryMutationRouteSaysItsWritePolicy: each mutation route is bound with exactly one of
// idempotency.Keyed(), Grouped() or Skip("reason") where it is bound, and README.md and
// SECURITY.md name every Skip route (they are not exactly-once).
func TestEveryMutationRouteSaysItsWritePolicy(t *testing.T) {
	all := bindings(t, "../../modules")
	if len(all) < 40 {
		t.Fatalf("found %d mutation routes in modules/, expected every one (about 48): has the binding style changed?", len(all))
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	security, err := os.ReadFile("../../SECURITY.md")
	if err != nil {
		t.Fatal(err)
	}
	var skipped []string
	for _, b := range all {
		switch {
		case len(b.policies) != 1:
			t.Errorf("%s (modules/%s) is bound with %v: bind exactly one of idempotency.Keyed(), Grouped() or Skip(\"reason\")", b.name(), b.file, b.policies)
		case b.policies[0] == "Skip" && strings.TrimSpace(b.reason) == "":
			t.Errorf("%s (modules/%s): idempotency.Skip needs its reason, a string literal", b.name(), b.file)
		case b.policies[0] == "Skip":
			skipped = append(skipped, b.name())
			for doc, text := range map[string][]byte{"README.md": readme, "SECURITY.md": security} {
				if !strings.Contains(string(text), "`"+b.name()+"`") {
					t.Errorf("%s is bound idempotency.Skip(%q) but %s does not list it among the routes that are not exactly-once", b.name(), b.reason, doc)
				}
			}
		}
	}
	sort.Strings(skipped)
	t.Logf("not exactly-once: %s", strings.Join(skipped, ", "))
}

// TestBindingReaderCatchesViolations proves the rule can fail, on a fake source.
func TestBindingReaderCatchesViolations(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", `package x

func register(se any) {
	admin := se.Router.Group("/api/admin")
	admin.POST("/a", h)
	admin.PUT("/b", h).Bind(httpx.RequireUser())
	se.Router.DELETE("/api/c", h).Bind(idempotency.Skip(""))
	admin.PATCH("/d", h).Bind(idempotency.Keyed(), idempotency.Skip("why"))
	admin.POST("/e", h).Bind(idempotency.Keyed())
}
`, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, b := range fileBindings("x.go", f) {
		got[b.name()] = strings.Join(b.policies, ",") + "|" + b.reason
	}
	want := map[string]string{"POST /api/admin/a": "|", "PUT /api/admin/b": "|", "DELETE /api/c": "Skip|",
		"PATCH /api/admin/d": "Keyed,Skip|why", "POST /api/admin/e": "Keyed|"}
	if len(got) != len(want) {
		t.Fatalf("read %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: read %q, want %q", k, got[k], v)
		}
	}
}
