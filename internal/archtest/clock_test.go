package archtest

import (
	"fmt"
	"go/ast"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// wallClock are the time functions that read the machine's clock; outside lib/clock the code
// reads clock.Now (clock.Since), so a test moves every module's time at once with clock.Set.
var wallClock = map[string]bool{"Now": true, "Since": true, "Until": true}

// clockViolations reports mf's reads of the machine's clock (time.Now, time.Since,
// time.Until, called or passed as a value).
func clockViolations(mf moduleFile) []string {
	local := ""
	for _, imp := range mf.file.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "time" {
			local = "time"
			if imp.Name != nil {
				local = imp.Name.Name
			}
		}
	}
	if local == "" {
		return nil
	}
	var out []string
	ast.Inspect(mf.file, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); ok && id.Name == local && id.Obj == nil && wallClock[sel.Sel.Name] {
			out = append(out, fmt.Sprintf("%s reads time.%s: use clock.%s (lib/clock, the one clock)", mf.rel, sel.Sel.Name, map[string]string{"Now": "Now", "Since": "Since", "Until": "Now"}[sel.Sel.Name]))
		}
		return true
	})
	sort.Strings(out)
	return out
}

// TestOneClock: no module, lib package or pb_app file reads the machine's clock but lib/clock.
func TestOneClock(t *testing.T) {
	for _, mf := range parseTrees(t, "modules", "lib", "pb_app") {
		if strings.HasPrefix(mf.rel, "lib/clock/") {
			continue
		}
		for _, v := range clockViolations(mf) {
			t.Error(v)
		}
	}
}

// TestClockCheckerCatchesViolations proves the rule can fail, on a fake source.
func TestClockCheckerCatchesViolations(t *testing.T) {
	bad := parseSnippet(t, "jobs", `package jobs

import tm "time"

var now = tm.Now

func f(start tm.Time) {
	_ = tm.Now().Add(tm.Second)
	_ = tm.Since(start)
	_ = tm.Duration(3)
}
`)
	if got := clockViolations(bad); len(got) != 3 {
		t.Errorf("clockViolations = %q, want time.Now (value and call) and time.Since", got)
	}
}
