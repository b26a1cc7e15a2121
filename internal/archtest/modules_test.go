package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// moduleImports lists every module → module import a module's (non-test) code may make, each
// with its reason. A module uses another only for its domain (STYLE.md: "a module uses
// another module only through its exported service functions"); shared plumbing lives in
// lib/*. Adding a line here is a design decision: say why, and keep the graph acyclic
// (the pack journal is the bottom, then inventory; nothing imports activity, auth, backups, custody, debuginfo
// or restore, and only head office imports earnings).
var moduleImports = map[[2]string]string{
	{"activity", "inventory"}: "the dashboards read the ledger (movement types, Stats, holders)",
	{"activity", "system"}:    "days and weeks are cut in the time zone setting; the state carries the prompts",
	{"activity", "users"}:     "the feeds and the weekly breakdown name users through users.Names; the attention strip counts pending approvals (users.CountPending)",
	{"activity", "charging"}:  "the state and the dashboard list the active sessions (charging.ActiveSessions); the attention strip counts the due ones by charging's own rule (charging.CountDue)",
	{"activity", "terms"}:     "the admin Home's attention strip counts the failed agreement PDFs (terms.CountFailedPDFs)",
	{"auth", "users"}:         "registration and login create and read accounts",
	{"backups", "system"}:     "the backup schedule runs in the operation's time zone setting",
	{"debuginfo", "jobs"}:     "the debug page shows each job's last and next run",
	{"debuginfo", "realtime"}: "the debug page shows how many /ws clients are connected",
	{"debuginfo", "system"}:   "the debug page shows the server time in the operation's time zone",
	{"auth", "terms"}:         "registration signs the active terms",
	{"hq", "replication"}:     "head office follows the replicas the cities make with modules/replication: its Config and Client reach them, CheckURL and SameEndpoint store a city's replica URL and keys by the System page's rules (DESIGN.md §15)",
	{"auth", "system"}:        "the signed-in user's answer carries the operation's time zone (the UI shows times in it)",
	{"charging", "inventory"}: "a charging session moves batteries through the ledger",
	{"custody", "inventory"}:  "assignments, swaps and transfers move batteries through the ledger",
	{"packs", "inventory"}:    "a pack's state change moves its battery with it (inventory.Shelve: quarantine, release); the pack pages read accounts",
	{"packs", "journal"}:      "every pack write goes through the pack journal: state changes, damage reports, recalls (journal.SetState, Damage, Recall), serials (journal.Serial)",
	{"inventory", "journal"}:  "the ledger's Post writes a movement's packs through the pack journal in its own transaction (journal.Prepare, Plan.Apply, Return, Check); the journal imports no module",
	{"packs", "system"}:       "packs go missing by the operation's local days: the cutoff is local midnight in the time zone setting (system.Location)",
	{"packs", "photos"}:       "a damage report's photos are the reporter's own claimed uploads (photos.Find); the incident report prints them from their thumbnails (photos.Thumb)",
	{"jobs", "packs"}:         "the pack-missing job moves the missing list at local midnight and announces it (packs.RunMissing)",
	{"jobs", "system"}:        "the pack-missing job runs at midnight in the operation's time zone setting",
	{"activity", "packs"}:     "the attention strip counts quarantined and missing packs, discrepancies and open damage reports (packs.CountAttention)",
	{"earnings", "inventory"}: "pay counts the ledger's movement types (dropoffs, rebalances, recovers)",
	{"earnings", "system"}:    "pay weeks are cut in the operation's time zone setting",
	{"earnings", "users"}:     "the pool withholding is a user's field, changed under the master-admin rules",
	{"jobs", "charging"}:      "the charging-due job announces the sessions past their ETA (charging.AnnounceDue)",
	{"jobs", "photos"}:        "the cleanup job removes unclaimed photo uploads",
	{"jobs", "terms"}:         "the pdf job makes the agreement PDFs that are stuck or failed",
	{"terms", "system"}:       "the agreement PDF shows the signing time in the operation's time zone",
	{"system", "photos"}:      "clean slate removes every photo and its file",
	{"system", "charging"}:    "recalculation syncs the sessions' quantities and clean slate removes the sessions (charging's services)",
	{"system", "inventory"}:   "stat edits, override, recalculation, wipe and clean slate are ledger operations",
	{"users", "inventory"}:    "a user who still holds batteries cannot be deleted",
	{"users", "terms"}:        "the user list shows each user's terms status",

	// the stocktake (DESIGN.md §14, issue 42 item 4)
	{"stocktake", "journal"}:   "a stocktake's packs are counted and moved by the pack journal (journal.Count, Tally.Apply)",
	{"stocktake", "inventory"}: "a stocktake's batteries move through the ledger in the same transaction (inventory.Post)",
	{"stocktake", "charging"}:  "a missing pack that leaves a charger lowers its session's quantity (charging.SyncQuantities)",
	{"stocktake", "packs"}:     "the answer names places and missing packs' last holders as the pack pages do (packs.PlacesOf, LastHolders)",

	// packs between cities (DESIGN.md §15, issue 45 item 6)
	{"transfers", "journal"}:   "a transfer's packs leave and arrive through the pack journal (journal.PlanSend, Outgoing.Apply, PlanReceive, Receive)",
	{"transfers", "inventory"}: "a transfer's batteries leave for / come from outside through the ledger in the same transaction (inventory.Post); a send's row goes with its deleted movement (inventory.OnDelete)",
	{"transfers", "packs"}:     "a received pack is a registry record (packs.NewPack), its identity checked by the registry's rules (packs.Specs, SerialPattern) and its history linked by the label's URL (packs.PackURL)",
	{"transfers", "users"}:     "the transfers list names who sent or received (users.Names)",

	// head office (DESIGN.md §15, issue 45)
	{"headoffice", "system"}: "what head office did with a token, and each token issued or revoked, is a row of the System page's audit list (system.RecordChange)",
	{"headoffice", "users"}:  "the token list names who issued and revoked each token (users.Names)",
	{"hq", "packs"}:          "head office's recall across cities checks by, value and reason with the city's recall's words (packs.MsgRecallBy, MsgRecallValue, MsgRecallReason)",
	{"hq", "earnings"}:       "head office totals a copy's week and day pay with earnings' own queries and arithmetic (earnings.Total, Earners, IndividualOf)",
	// pack health (DESIGN.md §16, issue 46): health sits just above the journal
	{"health", "journal"}:  "a readings CSV names packs by serial in the journal's canonical form (journal.Serial)",
	{"charging", "health"}: "a completed session's packs are re-derived with the charger's energy in the same transaction (health.Derive)",
	{"packs", "health"}:    "the pack's health read and the passport's performance fields come from the derivation (health.Read, health.Of)",
	{"jobs", "health"}:     "the nightly re-derivation slides the 30-day window (health.RederiveAll)",

	// continuous replication (DESIGN.md §13)
	{"jobs", "replication"}:      "the checkpoint job leaves data.db to Litestream while it replicates",
	{"debuginfo", "replication"}: "the debug page shows the replication's lag, last sync and warning",
	{"restore", "replication"}:   "a replica is one of the restore's sources; a restore turns the stored replication off",
	{"restore", "system"}:        "a restore ends with the ledger's recalculation, system.Recalculate (0 corrections expected)",
	{"restore", "headoffice"}:    "a restore revokes the head-office tokens it brings back (headoffice.RevokeRestored): one revoked after the backup would work again",
}

// plumbingNames are names no module may use from another module: request decoding, error
// mapping and response helpers are lib/apierr and lib/reqx, used directly. (They are the
// helpers that grew inside inventory and users before lib/apierr and lib/reqx existed.)
var plumbingNames = map[string]bool{
	"FieldError": true, "ToAPIError": true, "OptInt": true, "CheckNotes": true, "Success": true,
	"HTTPError": true, "ValidationError": true, "BindJSON": true,
	"Invalid": true, "NotFound": true, "Conflict": true, "NotEnough": true, "Refusal": true,
	"ErrInvalid": true, "ErrNotFound": true, "ErrConflict": true, "ErrNotEnough": true,
}

// pendingPlumbing are the uses that existed when this rule was written, allowed while they
// move onto lib/apierr and lib/reqx (file → "pkg.Name"). The list may only shrink: a use not
// listed here fails the test; a listed use that is gone is reported so it can be deleted.
var pendingPlumbing = map[string][]string{}

// moduleFile is one parsed non-test Go file of a module.
type moduleFile struct {
	rel    string // path from the repo root, slash-separated
	module string // modules/<module>/...
	file   *ast.File
}

// moduleImportsOf returns the other modules f imports (by module name, with the import path).
func moduleImportsOf(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if m := moduleOf(strings.TrimPrefix(p, module)); strings.HasPrefix(p, module) && m != "" {
			out[m] = p
		}
	}
	return out
}

// importViolations reports the module → module imports of mf that moduleImports does not list.
func importViolations(mf moduleFile, table map[[2]string]string) []string {
	var out []string
	for target, p := range moduleImportsOf(mf.file) {
		if target == mf.module {
			continue
		}
		if _, ok := table[[2]string{mf.module, target}]; !ok {
			out = append(out, fmt.Sprintf("%s imports %s: modules/%s → modules/%s is not in moduleImports (add it with a reason, or go through lib/*)", mf.rel, p, mf.module, target))
		}
	}
	sort.Strings(out)
	return out
}

// plumbingUses returns the "pkg.Name" selectors of mf that use a plumbing name of another
// module, whatever name the import is given.
func plumbingUses(mf moduleFile) []string {
	local := map[string]string{} // local package name → module
	for _, imp := range mf.file.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		target := moduleOf(strings.TrimPrefix(p, module))
		if !strings.HasPrefix(p, module) || target == "" || target == mf.module {
			continue
		}
		name := p[strings.LastIndex(p, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		local[name] = target
	}
	seen := map[string]bool{}
	ast.Inspect(mf.file, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok || id.Obj != nil { // id.Obj != nil: a local variable, not a package
			return true
		}
		if _, isPkg := local[id.Name]; isPkg && plumbingNames[sel.Sel.Name] {
			seen[id.Name+"."+sel.Sel.Name] = true
		}
		return true
	})
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// plumbingViolations reports uses in mf that pending does not allow.
func plumbingViolations(mf moduleFile, pending map[string][]string) []string {
	var out []string
	for _, use := range plumbingUses(mf) {
		allowed := false
		for _, p := range pending[mf.rel] {
			allowed = allowed || p == use
		}
		if !allowed {
			out = append(out, fmt.Sprintf("%s uses %s: another module's plumbing (use lib/apierr, lib/reqx)", mf.rel, use))
		}
	}
	return out
}

// parseModules parses every non-test Go file under modules/.
func parseModules(t *testing.T) []moduleFile {
	t.Helper()
	return parseTrees(t, "modules")
}

// parseTrees parses every non-test Go file under the given directories of the repository.
func parseTrees(t *testing.T, dirs ...string) []moduleFile {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var out []moduleFile
	for _, dir := range dirs {
		if err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(fset, path, nil, 0) // object resolution tells variables from packages
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			out = append(out, moduleFile{rel: rel, module: moduleOf(filepath.ToSlash(filepath.Dir(rel))), file: f})
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if len(out) == 0 {
		t.Fatal("no files found under", dirs)
	}
	return out
}

// TestModuleImports: every module → module import is listed in moduleImports, and every
// listed import is still made (the table stays the true graph).
func TestModuleImports(t *testing.T) {
	used := map[[2]string]bool{}
	for _, mf := range parseModules(t) {
		for _, v := range importViolations(mf, moduleImports) {
			t.Error(v)
		}
		for target := range moduleImportsOf(mf.file) {
			used[[2]string{mf.module, target}] = true
		}
	}
	for pair := range moduleImports {
		if !used[pair] {
			t.Errorf("moduleImports lists modules/%s → modules/%s, which no code imports any more: delete the line", pair[0], pair[1])
		}
	}
}

// TestNoForeignPlumbing: no module uses another module's error, decoding or response helpers.
func TestNoForeignPlumbing(t *testing.T) {
	for _, mf := range parseModules(t) {
		for _, v := range plumbingViolations(mf, pendingPlumbing) {
			t.Error(v)
		}
		for _, p := range pendingPlumbing[mf.rel] {
			found := false
			for _, use := range plumbingUses(mf) {
				found = found || use == p
			}
			if !found {
				t.Logf("pendingPlumbing: %s no longer uses %s; delete it from the list", mf.rel, p)
			}
		}
	}
}

// parseSnippet parses src as the file modules/<mod>/x.go.
func parseSnippet(t *testing.T, mod, src string) moduleFile {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	return moduleFile{rel: "modules/" + mod + "/x.go", module: mod, file: f}
}

// TestCheckersCatchViolations proves the two rules can fail, on fake sources.
func TestCheckersCatchViolations(t *testing.T) {
	bad := parseSnippet(t, "photos", `package photos

import (
	"swapbay/lib/apierr"
	inv "swapbay/modules/inventory"
	"swapbay/modules/users"
)

func handle(e any) error {
	var f struct{ Q inv.OptInt }
	_ = f
	if _, err := inv.Pickup(nil, inv.Op{}, "", 1); err != nil {
		return inv.ToAPIError(e, err)
	}
	return apierr.Invalid("x", "y")
}

var _ = users.FindByID
`)
	if got := plumbingUses(bad); strings.Join(got, ",") != "inv.OptInt,inv.ToAPIError" {
		t.Errorf("plumbingUses = %v, want [inv.OptInt inv.ToAPIError] (a renamed import, domain calls and lib/* ignored)", got)
	}
	if v := plumbingViolations(bad, nil); len(v) != 2 {
		t.Errorf("plumbingViolations = %v, want 2", v)
	}
	if v := plumbingViolations(bad, map[string][]string{"modules/photos/x.go": {"inv.OptInt", "inv.ToAPIError"}}); len(v) != 0 {
		t.Errorf("listed pending uses still reported: %v", v)
	}
	v := importViolations(bad, map[[2]string]string{{"photos", "users"}: "uploader names"})
	if len(v) != 1 || !strings.Contains(v[0], "modules/photos → modules/inventory") {
		t.Errorf("importViolations = %v, want the unlisted photos → inventory only", v)
	}

	// A module's own names and local variables that shadow a package name are not foreign.
	own := parseSnippet(t, "inventory", `package inventory

import "swapbay/modules/inventory/internal/x"

func Success() {}

func f() {
	users := struct{ Success func() }{}
	users.Success()
	x.FieldError()
}
`)
	if got := plumbingUses(own); len(got) != 0 {
		t.Errorf("own module flagged: %v", got)
	}
}
