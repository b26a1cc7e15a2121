package packs_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"swapbay/internal/testkit"
	"swapbay/modules/packs"
)

// The scanner checks what it scanned: each serial once, known or not, with its model and
// state and nothing else (no location, no person); label URLs read as their serial; more than
// 50 serials or none are refused naming the field.
func TestLookup(t *testing.T) {
	app, c, srv := start(t)
	defer app.Cleanup()
	if st, raw := srv.do(testkit.Headers(t, c.Master), "POST", "/api/admin/packs/mint", mintBody); st != 200 {
		t.Fatalf("mint = %d %s", st, raw)
	}
	driver := testkit.Headers(t, c.Driver)
	codes := url.QueryEscape("swb-000002,https://bay.example/p/SWB-000001,NOPE-9,SWB-000002")
	st, raw := srv.do(driver, "GET", "/api/packs/lookup?serials="+codes, nil)
	if st != 200 {
		t.Fatalf("lookup = %d %s", st, raw)
	}
	got := decode[struct {
		Packs []map[string]any `json:"packs"`
	}](t, raw)
	want := []map[string]any{
		{"serial": "SWB-000002", "known": true, "model": "S-48V 15Ah", "state": "in_service"},
		{"serial": "SWB-000001", "known": true, "model": "S-48V 15Ah", "state": "in_service"},
		{"serial": "NOPE-9", "known": false},
	}
	if fmt.Sprint(got.Packs) != fmt.Sprint(want) {
		t.Fatalf("lookup = %v; want %v", got.Packs, want)
	}

	many := make([]string, packs.MaxLookup+1)
	for i := range many {
		many[i] = packs.Serial("SWB", i+1)
	}
	for q, msg := range map[string]string{strings.Join(many, ","): packs.MsgLookupTooMany, "": packs.MsgLookupWhich, " , ": packs.MsgLookupWhich} {
		st, raw := srv.do(driver, "GET", "/api/packs/lookup?serials="+url.QueryEscape(q), nil)
		e := decode[errBody](t, raw)
		if st != 400 || !strings.Contains(string(raw), msg) || e.Data["serials"] == nil {
			t.Errorf("lookup %.20q = %d %s; want 400 %q on serials", q, st, raw, msg)
		}
	}
	// exactly 50 is fine
	if st, raw := srv.do(driver, "GET", "/api/packs/lookup?serials="+strings.Join(many[:packs.MaxLookup], ","), nil); st != 200 {
		t.Fatalf("50 serials = %d %s", st, raw)
	}
}
