package activity

import (
	"net/http"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/modules/charging"
	"swapbay/modules/packs"
	"swapbay/modules/terms"
	"swapbay/modules/users"
)

// Attention is what needs an admin's action first (GET /api/admin/attention, the admin Home's
// attention strip, issue 28): each count comes from the module that owns it.
type Attention struct {
	// ChargingDue is the active sessions whose ETA is now or past (charging.CountDue: the
	// sessions table's 'Due' status) and the batteries in them.
	ChargingDue charging.Due `json:"chargingDue"`
	// PendingApprovals is how many accounts await approval (users.CountPending).
	PendingApprovals int64 `json:"pendingApprovals"`
	// FailedPDFs is how many agreement PDFs failed (terms.CountFailedPDFs).
	FailedPDFs int64 `json:"failedPdfs"`
	// The packs' part (packs.CountAttention): quarantinedPacks, missingPacks,
	// packDiscrepancies (last 7 days) and damageReports (open).
	packs.Attention
	// WornPacks is how many worn packs are in service or maintenance (packs.CountWorn,
	// DESIGN.md §16: by the partial index on worn).
	WornPacks int64 `json:"wornPacks"`
}

// AttentionAt returns the counts at now: five indexed reads.
func AttentionAt(app core.App, now time.Time) (Attention, error) {
	var a Attention
	var err error
	if a.ChargingDue, err = charging.CountDue(app, now); err != nil {
		return a, err
	}
	if a.PendingApprovals, err = users.CountPending(app); err != nil {
		return a, err
	}
	if a.FailedPDFs, err = terms.CountFailedPDFs(app); err != nil {
		return a, err
	}
	if a.Attention, err = packs.CountAttention(app, now); err != nil {
		return a, err
	}
	a.WornPacks, err = packs.CountWorn(app)
	return a, err
}

func handleAdminAttention(e *core.RequestEvent) error {
	a, err := AttentionAt(e.App, clock.Now())
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, "Failed to load what needs attention.", err)
	}
	return e.JSON(http.StatusOK, a)
}
