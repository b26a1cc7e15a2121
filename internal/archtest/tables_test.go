package archtest

import (
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// tableOwners names the module that writes each table (docs/modules.md: "a module writes only
// its own tables and reads another module's through that module's exported functions").
// Keys are lib/schema's constant names; the table names are their values.
var tableOwners = map[string]struct{ table, module string }{
	"Accounts":         {"accounts", "inventory"},
	"Entries":          {"entries", "inventory"},
	"Movements":        {"movements", "inventory"},
	"ChargingSessions": {"charging_sessions", "charging"},
	"TermsVersions":    {"terms_versions", "terms"},
	"Agreements":       {"agreements", "terms"},
	"Photos":           {"photos", "photos"},
	"PayRates":         {"pay_rates", "earnings"},
	"TaskAdjustments":  {"task_adjustments", "earnings"},
	"Users":            {"users", "users"},

	"ReplicationSettings": {"replication_settings", "replication"},
	// the pack journal is the one writer of a pack's place and state and of its history
	// (issue 42); the registry (modules/packs) mints and imports through record saves
	"Packs":      {"packs", "journal"},
	"PackEvents": {"pack_events", "journal"},
	// pack health (DESIGN.md §16): the readings and the models are health's
	"PackReadings": {"pack_readings", "health"},
	"PackModels":   {"pack_models", "health"},
	// packs between cities (issue 45 item 6)
	"PackTransfers": {"pack_transfers", "transfers"},
}

// sharedColumns are the writes into another module's table that are by design, each limited
// to named columns: a file → table → reason. Unlike pendingTableWrites these stay.
var sharedColumns = map[string]map[string]string{
	// DESIGN.md §16: the journal owns a pack's place and state; the derived health columns
	// (soh, sohSource, sohAt, sohDrop30, energyThroughputWh, worn, wornReason) have one writer,
	// health.Derive, which touches no other column
	"modules/health/derive.go": {"packs": "the derived health columns only (health.Derive, their one writer)"},
}

// pendingTableWrites are the writes into another module's table that remain, each with its
// reason (file → table). The list may only shrink.
var pendingTableWrites = map[string]map[string]string{}

var sqlWrite = regexp.MustCompile(`(?i)\b(?:UPDATE|DELETE\s+FROM|INSERT(?:\s+OR\s+\w+)?\s+INTO)\s+[\x60"\[]?([a-z_]+)`)

// sqlText renders a string expression (literals joined with +, schema.X constants as their
// table names) as text; other operands become a space.
func sqlText(e ast.Expr) string {
	switch v := e.(type) {
	case *ast.BasicLit:
		if v.Kind == token.STRING {
			s, _ := strconv.Unquote(v.Value)
			return s
		}
	case *ast.BinaryExpr:
		if v.Op == token.ADD {
			return sqlText(v.X) + sqlText(v.Y)
		}
	case *ast.SelectorExpr:
		if id, ok := v.X.(*ast.Ident); ok && id.Name == "schema" {
			if o, ok := tableOwners[v.Sel.Name]; ok {
				return o.table
			}
		}
	case *ast.ParenExpr:
		return sqlText(v.X)
	}
	return " "
}

// tableWrites returns the tables mf writes with SQL text or dbx's Insert/Update/Delete/Upsert
// builders, with their positions.
func tableWrites(mf moduleFile) map[string]bool {
	owned := map[string]bool{}
	for _, o := range tableOwners {
		owned[o.table] = true
	}
	out := map[string]bool{}
	ast.Inspect(mf.file, func(n ast.Node) bool {
		switch v := n.(type) {
		case *ast.BinaryExpr, *ast.BasicLit:
			for _, m := range sqlWrite.FindAllStringSubmatch(sqlText(v.(ast.Expr)), -1) {
				if owned[m[1]] {
					out[m[1]] = true
				}
			}
			if _, ok := v.(*ast.BinaryExpr); ok {
				return false // its parts were read as one text
			}
		case *ast.CallExpr:
			sel, ok := v.Fun.(*ast.SelectorExpr)
			if !ok || len(v.Args) == 0 {
				return true
			}
			switch sel.Sel.Name {
			case "Insert", "Update", "Delete", "Upsert":
				if t := strings.TrimSpace(sqlText(v.Args[0])); owned[t] {
					out[t] = true
				}
			}
		}
		return true
	})
	return out
}

// tableViolations reports the writes of mf into tables another module owns, less pending.
func tableViolations(mf moduleFile, pending map[string]map[string]string) []string {
	owner := map[string]string{}
	for _, o := range tableOwners {
		owner[o.table] = o.module
	}
	var out []string
	for table := range tableWrites(mf) {
		if owner[table] == mf.module {
			continue
		}
		if _, ok := pending[mf.rel][table]; ok {
			continue
		}
		if _, ok := sharedColumns[mf.rel][table]; ok {
			continue
		}
		out = append(out, fmt.Sprintf("%s writes %s, a table of modules/%s: call that module's service instead", mf.rel, table, owner[table]))
	}
	sort.Strings(out)
	return out
}

// TestModulesWriteOnlyTheirTables: no module writes another module's table with SQL or dbx's
// builders (record saves of another module's collection are refused in review; the ledger's
// rows additionally by the hook guard and the movement store).
func TestModulesWriteOnlyTheirTables(t *testing.T) {
	seen := map[string]map[string]bool{}
	for _, mf := range parseModules(t) {
		for _, v := range tableViolations(mf, pendingTableWrites) {
			t.Error(v)
		}
		seen[mf.rel] = tableWrites(mf)
	}
	for file, tables := range pendingTableWrites {
		for table := range tables {
			if !seen[file][table] {
				t.Errorf("pendingTableWrites: %s no longer writes %s; delete it from the list", file, table)
			}
		}
	}
}

// TestTableCheckerCatchesViolations proves the rule can fail, on a fake source.
func TestTableCheckerCatchesViolations(t *testing.T) {
	bad := parseSnippet(t, "activity", `package activity

func f(app any) {
	app.DB().NewQuery("UPDATE " + schema.ChargingSessions + " SET x = 1").Execute()
	app.DB().NewQuery("DELETE FROM movements").Execute()
	app.DB().Update(schema.Photos, nil, nil).Execute()
	app.DB().NewQuery("SELECT id FROM users").All(nil)
}
`)
	got := tableViolations(bad, nil)
	if len(got) != 3 || !strings.Contains(strings.Join(got, "\n"), "charging_sessions") || !strings.Contains(strings.Join(got, "\n"), "photos") {
		t.Errorf("tableViolations = %q, want the charging_sessions, movements and photos writes (a SELECT is a read)", got)
	}
}
