// Package stocktake counts a place of the bay by its packs (DESIGN.md §14, issue 42 item 4):
// an admin scans every pack on the ready shelf, the waiting shelf, in quarantine, on the
// chargers or in the whole bay; the screen shows found / missing / unexpected / wrong place as
// the scans come (a preview, nothing written), and Apply writes one keyed `stocktake` movement
// that moves the counts and the packs together to what was scanned. It is how a bay turns
// required tracking on, and how it recovers from any surprise.
//
// The packs move through the pack journal (journal.Count, Tally.Apply), the batteries through
// the ledger (inventory.Post) in the same transaction; a charging session's quantity follows
// its account (charging.SyncQuantities).
package stocktake

import (
	"net/http"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/httpx"
	"swapbay/lib/idempotency"
	"swapbay/modules/inventory"
)

// Register adds the stocktake route (admin and master_admin only):
//
//	POST /api/admin/stocktake  {place: ready|waiting|quarantine|chargers|bay, serials: [serial or label URL…] ≤ 10,000,
//	                            empty?: true (the place holds no pack), dryRun?: true}
//	     → {success, message, place, applied, counts {scanned, expected, found, missing, unexpected, wrongPlace,
//	        unknown, before, after, refused}, found, missing, unexpected, wrongPlace: [{serial, state, from: Place|null,
//	        lastSeenAt, lastHolder?, refusal?: {code, message}}], unknown: [serial], movement (applied) | null, stats}
//	     dryRun: the live preview, nothing written (unknown serials listed; a pack Apply would refuse
//	     — sent to another city — carries that refusal's code and message, counted in refused). Otherwise one `stocktake`
//	     movement (keyed): 400 pack_unknown naming every unknown serial in data.packs, pack_count for a
//	     pack scanned twice; 409 while pack tracking is off, 409 pack_in_transit for a pack sent to another city.
func Register(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.POST("/api/admin/stocktake", httpx.FormUpTo(idempotency.MaxBody, handleStocktake)).Bind(httpx.RequireAdmin(), idempotency.Keyed())
		return se.Next()
	})
}

type stocktakeForm struct {
	Place   string   `json:"place"`
	Serials []string `json:"serials"`
	Empty   bool     `json:"empty"`
	DryRun  bool     `json:"dryRun"`
}

func handleStocktake(e *core.RequestEvent, f *stocktakeForm) error {
	in := Input{Place: f.Place, Serials: f.Serials, Empty: f.Empty}
	var stats inventory.Snapshot
	var res *Result
	var err error
	if f.DryRun {
		if res, err = Reconcile(e.App, in); err == nil {
			stats, err = inventory.Stats(e.App)
		}
	} else {
		res, err = Apply(e.App, inventory.Op{Actor: e.Auth, Stats: &stats}, in)
	}
	if err != nil {
		return apierr.Response(e, err)
	}
	return e.JSON(http.StatusOK, map[string]any{
		"success": true, "message": res.Message(), "place": res.Place, "applied": res.Applied, "counts": res.Counts,
		"found": res.Found, "missing": res.Missing, "unexpected": res.Unexpected, "wrongPlace": res.WrongPlace,
		"unknown": res.Unknown, "movement": res.Movement, "stats": stats,
	})
}
