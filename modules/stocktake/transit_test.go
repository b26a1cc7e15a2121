package stocktake_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"swapbay/internal/ledgertest"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/system"
	"swapbay/modules/transfers"
)

// A pack sent to another city (in transit: its battery left the counts, the fleet's total went
// down, the send's row says it left) is not counted back in service by a stocktake here: the
// transfer would still show it sent (the other city can receive it) while this city counts it
// again — in two cities, and this city's total one short (unaccounted −1). The apply is refused
// 409 pack_in_transit naming the pack, where it went and the way out (delete the send if it
// never left); nothing changes, the preview still answers, and a count without it applies.
func TestStocktakeRefusesAPackInTransit(t *testing.T) {
	w := newWorld(t)
	if _, err := transfers.Send(w.app, inventory.Op{Actor: w.c.Admin}, transfers.SendInput{ToCity: "Berlin", Serials: []string{serial(3)}}); err != nil {
		t.Fatal(err)
	}
	if st, _ := pack(t, w.app, 3); st != schema.PackStateInTransit {
		t.Fatalf("sent pack is %s; want in transit", st)
	}
	before := ledgertest.Capture(t, w.app)
	status, raw, _ := w.post(t, uuid.Must(uuid.NewV7()).String(), scanned("ready", false, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10))
	if status != http.StatusConflict {
		t.Fatalf("stocktake counting a pack in transit = %d %s; want 409", status, raw)
	}
	for _, want := range []string{`"code":"pack_in_transit"`, `"serial":"SWB-000003"`, "SWB-000003 was sent to Berlin", "delete", "Activity page"} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("refusal %s lacks %q", raw, want)
		}
	}
	ledgertest.AssertUnchanged(t, w.app, before)
	if st, loc := pack(t, w.app, 3); st != schema.PackStateInTransit || loc != "" {
		t.Errorf("sent pack after the refusal: %s at %q; want in transit, nowhere", st, loc)
	}
	ledgertest.AssertSound(t, w.app)
	if res, err := system.Recalculate(w.app); err != nil || len(res.Corrections) != 0 || len(res.PackCorrections) != 0 {
		t.Fatalf("recalculate: %v %v %v", res.Corrections, res.PackCorrections, err)
	}
	// the live preview still answers, and shows it with its state
	status, raw, _ = w.post(t, "", scanned("ready", true, 1, 2, 3))
	if status != 200 || !strings.Contains(string(raw), `"state":"in_transit"`) {
		t.Fatalf("preview = %d %s; want 200 with the pack in transit", status, raw)
	}
	assertPreviewRefuses(t, raw)
	// counted without it, the shelf applies and nothing is unaccounted
	status, raw, _ = w.post(t, uuid.Must(uuid.NewV7()).String(), scanned("ready", false, 1, 2, 4, 5, 6, 7, 8, 9, 10))
	if status != 200 {
		t.Fatalf("stocktake without the pack = %d %s", status, raw)
	}
	st, err := inventory.Stats(w.app)
	if err != nil {
		t.Fatal(err)
	}
	if st.Unaccounted != 0 || st.Ready != 9 {
		t.Errorf("stats %+v; want ready 9, unaccounted 0", st)
	}
	ledgertest.AssertSound(t, w.app)
}

// assertPreviewRefuses checks a preview that counts SWB-000003 (sent to Berlin): the pack
// carries the refusal Apply gives it, word for word, before the admin applies; the other
// unexpected packs carry none and the counts and message say one cannot be counted.
func assertPreviewRefuses(t *testing.T, raw []byte) {
	t.Helper()
	var ans struct {
		Message    string `json:"message"`
		Counts     struct{ Refused int }
		Unexpected []struct {
			Serial  string
			Refusal *struct{ Code, Message string }
		}
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		t.Fatal(err)
	}
	want := "Pack SWB-000003 was sent to Berlin and cannot be counted here: if it never left, delete its send on the Activity page; if it left, leave it out of the count"
	var seen bool
	for _, p := range ans.Unexpected {
		switch {
		case p.Serial == "SWB-000003":
			seen = true
			if p.Refusal == nil || p.Refusal.Code != "pack_in_transit" || p.Refusal.Message != want {
				t.Errorf("preview's SWB-000003 refusal = %+v; want pack_in_transit %q", p.Refusal, want)
			}
		case p.Refusal != nil:
			t.Errorf("preview refuses %s: %+v", p.Serial, p.Refusal)
		}
	}
	if !seen {
		t.Errorf("preview %s does not list SWB-000003 as unexpected", raw)
	}
	if ans.Counts.Refused != 1 || !strings.Contains(ans.Message, "1 cannot be counted here") {
		t.Errorf("preview counts refused %d, message %q; want 1 and it said", ans.Counts.Refused, ans.Message)
	}
}
