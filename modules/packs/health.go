package packs

import (
	"net/http"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/modules/health"
)

// PackHealth answers the health of the pack with serial (DESIGN.md §16) to v: who may read the
// pack (PackDetail's rules: a driver only a pack they hold) may read its health.
func PackHealth(app core.App, v Viewer, serial string) (health.Report, error) {
	d, err := PackDetail(app, v, serial)
	if err != nil {
		return health.Report{}, err
	}
	return health.Read(app, d.Id)
}

func handleHealth(e *core.RequestEvent) error {
	r, err := PackHealth(e.App, viewer(e), e.Request.PathValue("serial"))
	if err != nil {
		return apierr.Response(e, err)
	}
	return e.JSON(http.StatusOK, r)
}
