package archtest

import (
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// rawTable finds a table named by hand in SQL text (FROM movements, UPDATE accounts …).
var rawTable = func() *regexp.Regexp {
	var names []string
	for _, o := range tableOwners {
		names = append(names, o.table)
	}
	names = append(names, "settings", "idempotency_keys")
	return regexp.MustCompile(`(?i)\b(?:FROM|INTO|UPDATE|JOIN)\s+[\x60"\[]?(` + strings.Join(names, "|") + `)\b`)
}()

// rawTableNames reports the string literals of mf that name a table instead of taking its
// name from lib/schema.
func rawTableNames(mf moduleFile) []string {
	var out []string
	ast.Inspect(mf.file, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			s, _ := strconv.Unquote(lit.Value)
			for _, m := range rawTable.FindAllStringSubmatch(s, -1) {
				out = append(out, fmt.Sprintf("%s names the table %s in SQL: use its lib/schema constant", mf.rel, m[1]))
			}
		}
		return true
	})
	return out
}

// TestTableNamesFromSchema: SQL in modules/, lib/ and pb_app/ takes every table name from
// lib/schema, so a renamed table is one constant to change.
func TestTableNamesFromSchema(t *testing.T) {
	for _, mf := range parseTrees(t, "modules", "lib", "pb_app") {
		if strings.HasPrefix(mf.rel, "lib/schema/") {
			continue
		}
		for _, v := range rawTableNames(mf) {
			t.Error(v)
		}
	}
}

// TestRawTableCheckerCatchesViolations proves the rule can fail, on a fake source.
func TestRawTableCheckerCatchesViolations(t *testing.T) {
	bad := parseSnippet(t, "activity", "package activity\n\nconst q = `SELECT 1 FROM movements m JOIN users u`\nconst ok = \"SELECT 1 FROM \" + schema.Movements\n")
	if got := rawTableNames(bad); len(got) != 2 {
		t.Errorf("rawTableNames = %q, want movements and users", got)
	}
}
