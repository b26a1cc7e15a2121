// Package users is SwapBay's users module: accounts, approval, the master rules of spec
// part 2 §6, and the admin user routes. Other modules and the CLI create users through
// Create and render them with ToJSON.
package users

import (
	"net/http"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/httpx"
	"swapbay/lib/idempotency"
	"swapbay/lib/reqx"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/terms"
)

// Register adds the admin user routes to app (all admin and master_admin only):
//
//	GET    /api/admin/users                       every user, newest first, with termsStatus
//	GET    /api/admin/users/pending               the users awaiting approval
//	POST   /api/admin/users/create                an approved account (bypassTerms optional)
//	POST   /api/admin/users/{id}/approval         {isApproved}
//	PUT    /api/admin/users/{id}                  only the changed fields
//	DELETE /api/admin/users/{id}
//	POST   /api/admin/users/{id}/suspend
//	POST   /api/admin/force-terms-resigning/{id}  the user signs the terms again at next login
func Register(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		g := se.Router.Group("/api/admin")
		g.Bind(httpx.RequireAdmin())
		g.GET("/users", listUsers)
		g.GET("/users/pending", listPending)
		g.POST("/users/create", httpx.Form(createUser)).Bind(idempotency.Skip("hashes the password (bcrypt) outside the write transaction"))
		g.POST("/users/{id}/approval", httpx.Form(setApproval)).Bind(idempotency.Keyed())
		g.PUT("/users/{id}", httpx.Form(updateUser)).Bind(idempotency.Skip("may hash a new password (bcrypt) outside the write transaction"))
		g.DELETE("/users/{id}", deleteUser).Bind(idempotency.Keyed())
		g.POST("/users/{id}/suspend", suspendUser).Bind(idempotency.Keyed())
		g.POST("/force-terms-resigning/{id}", forceResign).Bind(idempotency.Keyed())
		return se.Next()
	})
}

func listUsers(e *core.RequestEvent) error { return listAdmin(e, "") }

func listPending(e *core.RequestEvent) error { return listAdmin(e, roles.Pending) }

// listAdmin answers the users (filtered by approval when not "") as AdminJSON rows.
func listAdmin(e *core.RequestEvent, approval string) error {
	recs, err := List(e.App, approval)
	if err != nil {
		return apierr.Response(e, err)
	}
	ids := make([]string, len(recs))
	for i, r := range recs {
		ids[i] = r.Id
	}
	latest, err := terms.LatestAgreements(e.App, ids)
	if err != nil {
		return apierr.Response(e, err)
	}
	out := make([]AdminJSON, len(recs))
	for i, r := range recs {
		out[i] = AdminJSON{JSON: ToJSON(r), Created: formatTime(r, schema.Created)}
		if a, ok := latest[r.Id]; ok {
			out[i].TermsStatus = TermsStatus{
				Signed:      true,
				PDFStatus:   a.PDFStatus(),
				SignedAt:    formatTime(a.Record, schema.AgreementSignedAt),
				Version:     a.Label(),
				AgreementID: a.Id,
			}
		}
	}
	return e.JSON(http.StatusOK, out)
}

type approvalForm struct {
	IsApproved string `json:"isApproved"`
}

// replyUser answers the user a service changed (ToJSON), or err as its ApiError.
func replyUser(e *core.RequestEvent, rec *core.Record, err error) error {
	if err != nil {
		return apierr.Response(e, err)
	}
	return e.JSON(http.StatusOK, ToJSON(rec))
}

func setApproval(e *core.RequestEvent, form *approvalForm) error {
	rec, err := SetApproval(e.App, e.Auth, e.Request.PathValue("id"), form.IsApproved)
	return replyUser(e, rec, err)
}

func suspendUser(e *core.RequestEvent) error {
	rec, err := SetApproval(e.App, e.Auth, e.Request.PathValue("id"), roles.Suspended)
	return replyUser(e, rec, err)
}

type createForm struct {
	FirstName   string `json:"firstName"`
	LastName    string `json:"lastName"`
	Email       string `json:"email"`
	Password    string `json:"password"`
	Role        string `json:"role"`
	BypassTerms bool   `json:"bypassTerms"`
}

func createUser(e *core.RequestEvent, form *createForm) error {
	rec, err := AdminCreate(e.App, e.Auth, AdminNewUser{
		NewUser: NewUser{
			Email: form.Email, Password: form.Password,
			FirstName: form.FirstName, LastName: form.LastName, Role: form.Role,
		},
		BypassTerms: form.BypassTerms,
	})
	return replyUser(e, rec, err)
}

type updateForm struct {
	FirstName              *string  `json:"firstName"`
	LastName               *string  `json:"lastName"`
	Email                  *string  `json:"email"`
	Role                   *string  `json:"role"`
	Password               *string  `json:"password"`
	PayReductionPercentage reqx.Int `json:"payReductionPercentage"`
}

func updateUser(e *core.RequestEvent, form *updateForm) error {
	rec, err := Update(e.App, e.Auth, e.Request.PathValue("id"), Changes{
		FirstName: form.FirstName, LastName: form.LastName, Email: form.Email, Role: form.Role, Password: form.Password,
		PayReductionPercentage: form.PayReductionPercentage.OrNil(),
	})
	return replyUser(e, rec, err)
}

func deleteUser(e *core.RequestEvent) error {
	err := Delete(e.App, e.Auth, e.Request.PathValue("id"))
	return httpx.Reply(e, map[string]string{"message": "User deleted successfully"}, err)
}

func forceResign(e *core.RequestEvent) error {
	rec, err := ForceResign(e.App, e.Auth, e.Request.PathValue("id"))
	if err != nil {
		return apierr.Response(e, err)
	}
	return e.JSON(http.StatusOK, map[string]any{
		"message": "The user must re-sign the terms and conditions at their next login",
		"user":    ToJSON(rec),
	})
}
