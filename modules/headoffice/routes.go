package headoffice

import (
	"net/http"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/httpx"
	"swapbay/lib/idempotency"
	"swapbay/lib/roles"
)

// Register adds head office's door (Door, on every request) and the token routes, master
// admins only (the System page's Head office card):
//
//	GET  /api/admin/head-office/tokens              → {tokens: [Token]} newest first (never a token itself)
//	POST /api/admin/head-office/tokens              {name} → {success, message, token: "swbhq_…" (shown once), info: Token};
//	                                                 409 more than MaxActive tokens at once
//	POST /api/admin/head-office/tokens/{id}/revoke  {} → {success, message, info: Token}; 404 unknown, 409 already revoked
//
// A token is sent as `Authorization: Bearer swbhq_…`; it opens only the routes of scope, as its
// issuer (401 unknown or revoked, 403 out of scope or an issuer who is no longer an approved
// master admin).
func Register(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.Bind(Door())
		master := se.Router.Group("/api/admin/head-office")
		master.Bind(httpx.RequireRoles(roles.MasterAdmin))
		master.GET("/tokens", handleList)
		master.POST("/tokens", httpx.Form(handleIssue)).Bind(idempotency.Keyed())
		master.POST("/tokens/{id}/revoke", handleRevoke).Bind(idempotency.Keyed())
		return se.Next()
	})
}

func handleList(e *core.RequestEvent) error {
	list, err := List(e.App)
	return httpx.Reply(e, map[string]any{"tokens": list}, err)
}

type issueForm struct {
	Name string `json:"name"`
}

func handleIssue(e *core.RequestEvent, f *issueForm) error {
	var info Token
	var token string
	err := e.App.RunInTransaction(func(txApp core.App) error {
		var err error
		info, token, err = Issue(txApp, e.Auth, f.Name)
		return err
	})
	if err != nil {
		return apierr.Response(e, err)
	}
	// no-store: the token is in this answer only (a keyed retry of the same request by the same
	// master admin gets the same answer from the idempotency store, as every keyed write does)
	e.Response.Header().Set("Cache-Control", "no-store")
	return e.JSON(http.StatusOK, map[string]any{"success": true, "message": MsgIssued, "token": token, "info": info})
}

func handleRevoke(e *core.RequestEvent) error {
	var info Token
	err := e.App.RunInTransaction(func(txApp core.App) error {
		var err error
		info, err = Revoke(txApp, e.Auth, e.Request.PathValue("id"))
		return err
	})
	return httpx.Reply(e, map[string]any{"success": true, "message": MsgRevoked, "info": info}, err)
}
