// Package health derives each pack's health from data (DESIGN.md §16, issue 46): readings
// imported from the packs' battery management systems and the chargers, the completed charging
// sessions naming the pack, and the model's figures. Derive is the one writer of the derived
// columns on packs (soh, sohSource, sohAt, sohDrop30, energyThroughputWh, worn, wornReason);
// the pack journal reads worn at hand-out, the packs list filters by it. It imports no module
// but the pack journal (a serial's canonical form), so charging, packs and jobs may call it.
package health

import (
	"errors"
	"net/http"
	"strings"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/httpx"
	"swapbay/lib/idempotency"
	"swapbay/lib/roles"
)

// Register adds the pack health routes (the pack's own health read, GET
// /api/packs/{serial}/health, is the packs module's: it has the pack's access rules):
//
//	GET  /api/admin/packs/models    admins, liaison → {models: [{model, nominalWh, ratedAh, threshold, configured, packs, worn}]}
//	                                every distinct non-empty pack model and every configured one; unconfigured:
//	                                threshold 80 and the packs' most common nominalWh
//	PUT  /api/admin/packs/models    admins, keyed {model, nominalWh?, ratedAh?, threshold}
//	                                → {success, message, model}; re-derives the model's packs in the same transaction
//	POST /api/admin/packs/readings  admins, keyed {csv, dryRun} (body ≤ MaxReadingsBody, ≤ MaxReadingRows rows)
//	                                dryRun → {rows, packs, errors: [{line, serial, message}]} (nothing written);
//	                                else all rows in one transaction → {success, message, rows, packs, worn: [serial…]},
//	                                or nothing and a 400 whose data.rows names every bad row
func Register(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		g := se.Router.Group("/api/admin/packs")
		g.GET("/models", handleModels).Bind(httpx.RequireRoles(roles.Admin, roles.MasterAdmin, roles.Liaison))
		g.PUT("/models", httpx.Form(handleSaveModel)).Bind(httpx.RequireAdmin(), idempotency.Keyed())
		g.POST("/readings", httpx.FormUpTo(MaxReadingsBody, handleReadings)).Bind(httpx.RequireAdmin(), idempotency.Keyed())
		return se.Next()
	})
}

func handleModels(e *core.RequestEvent) error {
	rows, err := Models(e.App)
	return httpx.Reply(e, map[string]any{"models": rows}, err)
}

type modelForm struct {
	Model     string   `json:"model"`
	NominalWh *float64 `json:"nominalWh"`
	RatedAh   *float64 `json:"ratedAh"`
	Threshold *float64 `json:"threshold"`
}

func handleSaveModel(e *core.RequestEvent, f *modelForm) error {
	row, err := SaveModel(e.App, ModelInput(*f))
	return httpx.Reply(e, map[string]any{"success": true, "message": strings.Replace(MsgModelSaved, "%s", row.Model.Model, 1), "model": row}, err)
}

type readingsForm struct {
	CSV    string `json:"csv"`
	DryRun bool   `json:"dryRun"`
}

func handleReadings(e *core.RequestEvent, f *readingsForm) error {
	key := strings.TrimSpace(e.Request.Header.Get(idempotency.Header))
	pre, out, err := ImportReadings(e.App, f.CSV, f.DryRun, key, e.Auth.Id)
	var rowsErr *RowsError
	if errors.As(err, &rowsErr) {
		apiErr := apierr.New(http.StatusBadRequest, "", rowsErr.Message)
		apiErr.Data["rows"] = rowsErr.Rows
		return apiErr
	}
	if err != nil {
		return apierr.Response(e, err)
	}
	if f.DryRun {
		return e.JSON(http.StatusOK, pre)
	}
	return e.JSON(http.StatusOK, out)
}
