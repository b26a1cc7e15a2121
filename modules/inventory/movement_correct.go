package inventory

import (
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/httpx"
	"swapbay/lib/reqx"
)

// The admin corrections of recorded movements (spec part 1 §5), registered in Register:
// PUT and DELETE /api/admin/movements/{id}. Their logic is EditMovement and DeleteMovement,
// which validate (handlers only decode).

// editForm may name the corrected movement's packs (packs for a pickup, goodPacks and
// deadPacks for a dropoff or a swap); naming none keeps the packs it had.
type editForm struct {
	Good  reqx.Int `json:"goodBatteries"`
	Dead  reqx.Int `json:"deadBatteries"`
	Notes string   `json:"notes"`
	PackNames
}

func handleEditMovement(e *core.RequestEvent, f *editForm) error {
	var stats Snapshot
	mv, err := EditMovement(e.App, Op{Actor: e.Auth, Packs: f.PackNames, Stats: &stats}, e.Request.PathValue("id"), f.Good.Or(0), f.Dead.Or(0), f.Notes)
	if err != nil {
		return apierr.Response(e, err)
	}
	return httpx.Success(e, "The movement has been corrected successfully.", stats, map[string]any{"movement": mv})
}

func handleDeleteMovement(e *core.RequestEvent) error {
	var stats Snapshot
	if err := DeleteMovement(e.App, Op{Actor: e.Auth, Stats: &stats}, e.Request.PathValue("id")); err != nil {
		return apierr.Response(e, err)
	}
	return httpx.Success(e, "The movement has been deleted and batteries returned.", stats, nil)
}
