// Package archtest checks the Go import direction of STYLE.md: pb_app → hooks, pb_migrations
// → modules → lib. Leaf packages import no SwapBay package above them, modules never import the
// wiring or migrations, and no module reaches into another module's internal packages.
// modules_test.go checks the module → module imports against a table of reasons and that no
// module uses another module's plumbing.
package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "swapbay/"

// layer returns the architectural layer of a package path relative to the repo root.
func layer(rel string) string {
	switch {
	case strings.HasPrefix(rel, "lib/"):
		return "lib"
	case strings.HasPrefix(rel, "modules/"):
		return "modules"
	case rel == "pb_migrations" || strings.HasPrefix(rel, "pb_migrations/"):
		return "migrations"
	case rel == "pb_app" || strings.HasPrefix(rel, "pb_app/"):
		return "app"
	case rel == "hooks" || strings.HasPrefix(rel, "hooks/"):
		return "hooks"
	case rel == "ui":
		return "ui"
	}
	return "other"
}

// allowed lists which layers each layer may import.
var allowed = map[string][]string{
	"lib":        {"lib"},
	"ui":         {},
	"modules":    {"lib", "modules"},
	"migrations": {"lib", "modules"},
	"hooks":      {"lib", "modules"},
	"app":        {"lib", "modules", "migrations", "hooks", "app", "ui"},
}

func moduleOf(rel string) string {
	parts := strings.Split(rel, "/")
	if len(parts) >= 2 && parts[0] == "modules" {
		return parts[1]
	}
	return ""
}

func TestImportDirection(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if name == "node_modules" || name == ".git" || name == "internal" && path == filepath.Join(root, "internal") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		relFile, _ := filepath.Rel(root, path)
		rel := filepath.ToSlash(filepath.Dir(relFile))
		from := layer(rel)
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(p, module) {
				continue
			}
			target := strings.TrimPrefix(p, module)
			to := layer(target)
			ok := false
			for _, a := range allowed[from] {
				if a == to {
					ok = true
				}
			}
			if !ok {
				t.Errorf("%s (%s) imports %s (%s): not allowed", relFile, from, p, to)
			}
			if to == "modules" && moduleOf(target) != moduleOf(rel) && strings.Contains(target, "/internal") {
				t.Errorf("%s reaches into another module's internals: %s", relFile, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no Go files checked")
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal("repo root not found")
	}
}
