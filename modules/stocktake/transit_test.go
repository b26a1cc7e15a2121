package stocktake_test

import (
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
