// Package terms is SwapBay's terms module: the contractor agreement's versions, the built-in
// template, and the signed agreements (DESIGN.md §7).
package terms

import (
	"errors"
	"net/http"

	"github.com/pocketbase/pocketbase/core"
)

// Register adds the terms routes to app:
//
//	GET /api/terms-content/active   everyone, guests too   the active version
func Register(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET("/api/terms-content/active", getActive)
		return se.Next()
	})
}

// getActive answers the active terms version, 404 when none is active.
func getActive(e *core.RequestEvent) error {
	v, err := FindActive(e.App)
	if errors.Is(err, ErrNoActiveTerms) {
		return e.NotFoundError(ErrNoActiveTerms.Error(), nil)
	}
	if err != nil {
		return e.InternalServerError("Failed to load the terms and conditions.", err)
	}
	return e.JSON(http.StatusOK, v.ToActiveJSON())
}
