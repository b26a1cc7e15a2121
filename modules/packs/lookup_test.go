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

// The scanner judges a scan by the out-of-use list (issue 42 item 6): every quarantined,
// retired or recycled pack, and a lost one that was quarantined, each with the refusal the
// server gives it, in the server's words; a pack in service, in maintenance or lost from
// service is not on it. A driver may read it.
func TestOutOfUseList(t *testing.T) {
	app, c, srv := start(t)
	defer app.Cleanup()
	master := testkit.Headers(t, c.Master)
	body := map[string]any{}
	for k, v := range mintBody {
		body[k] = v
	}
	body["count"] = 6
	if st, raw := srv.do(master, "POST", "/api/admin/packs/mint", body); st != 200 {
		t.Fatalf("mint = %d %s", st, raw)
	}
	for _, step := range []struct{ serial, state string }{
		{"SWB-000001", "quarantined"},
		{"SWB-000002", "retired"},
		{"SWB-000003", "quarantined"}, {"SWB-000003", "lost"},
		{"SWB-000004", "lost"},
		{"SWB-000005", "maintenance"},
	} {
		if st, raw := srv.do(master, "PUT", "/api/admin/packs/"+step.serial+"/state", map[string]any{"state": step.state, "reason": "test"}); st != 200 {
			t.Fatalf("%s → %s = %d %s", step.serial, step.state, st, raw)
		}
	}
	st, raw := srv.do(testkit.Headers(t, c.Driver), "GET", "/api/packs/out-of-use", nil)
	if st != 200 {
		t.Fatalf("out-of-use = %d %s", st, raw)
	}
	got := decode[struct {
		Packs []map[string]string `json:"packs"`
	}](t, raw)
	want := []map[string]string{
		{"serial": "SWB-000001", "code": "pack_quarantined", "message": "Pack SWB-000001 is quarantined and cannot be handed out"},
		{"serial": "SWB-000002", "code": "pack_retired", "message": "Pack SWB-000002 is retired and cannot be handed out"},
		{"serial": "SWB-000003", "code": "pack_quarantined", "message": "Pack SWB-000003 is quarantined and cannot be handed out"},
	}
	if fmt.Sprint(got.Packs) != fmt.Sprint(want) {
		t.Fatalf("out-of-use = %v; want %v", got.Packs, want)
	}
}
