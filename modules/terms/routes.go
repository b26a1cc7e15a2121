// Package terms is SwapBay's terms module: the contractor agreement's versions (the editor's
// API, the built-in template), the signed agreements and their PDFs (DESIGN.md §7).
package terms

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/httpx"
	"swapbay/lib/idempotency"
	"swapbay/lib/ratelimit"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/system"
)

// RetryLimit bounds an admin's PDF retries (each a render, queued behind the others).
var RetryLimit = ratelimit.Limit{Name: "POST /api/admin/retry-pdf",
	PerAccount: ratelimit.Rule{N: 10, Window: time.Minute}, PerIP: ratelimit.Rule{N: 30, Window: time.Minute}}

// Register adds the terms routes to app and lets RecordAgreement make PDFs on it:
//
//	GET  /api/terms-content/active               everyone, guests too    the active version {id, title, version,
//	                                                                     effectiveDate, content, contentHash}
//	GET  /api/admin/terms-content                admins                  every version (+ signedCount)
//	GET  /api/admin/terms-template               admins                  the built-in 2025 template
//	POST /api/admin/terms-content                admins  {version, title, content, effectiveDate}
//	PUT  /api/admin/terms-content/{id}           admins  same fields; 409 once signed
//	POST /api/admin/terms-content/{id}/activate  admins  the one active version
//	GET  /api/admin/terms-agreements             admins  every agreement, newest first
//	POST /api/admin/retry-pdf/{id}               admins  regenerate now → {message}; RetryLimit (429)
//	GET  /api/agreements/mine                    signed in, any approval  the caller's latest agreement
//	                                             {id, termsVersion, signedAt, pdfStatus, pdfUrl}; 404 when none
//	GET  /api/agreements/{id}/pdf                its signer in any approval state, approved admins
//	                                             (guests 401, others 403)
//
// Content is sanitised on every write (Sanitize). An agreement's PDF is made after its
// signing commits; the pdf job (modules/jobs) retries what is stuck or failed. The PDF routes
// answer a failure as 4xx with its reason, never 500. Events: TERMS_UPDATED.
func Register(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET("/api/terms-content/active", getActive)
		admin := se.Router.Group("/api/admin")
		admin.Bind(httpx.RequireAdmin())
		admin.GET("/terms-content", handleList)
		admin.GET("/terms-template", handleTemplate)
		admin.POST("/terms-content", httpx.FormUpTo(maxVersionBody, handleCreate)).Bind(idempotency.Keyed())
		admin.PUT("/terms-content/{id}", httpx.FormUpTo(maxVersionBody, handleUpdate)).Bind(idempotency.Keyed())
		admin.POST("/terms-content/{id}/activate", handleActivate).Bind(idempotency.Keyed())
		admin.GET("/terms-agreements", handleAgreements)
		// renders a PDF (seconds of CPU): outside the keyed write transaction, which would hold
		// SQLite's only writer meanwhile and roll back the recorded failure with its 422
		admin.POST("/retry-pdf/{id}", handleRetry).Bind(idempotency.Skip("renders a PDF; a failure is recorded, not rolled back"), RetryLimit.Handler())
		// the signer in any account state (a new registrant is pending from the moment they
		// sign); admins as every admin route
		se.Router.GET("/api/agreements/mine", handleMine).Bind(httpx.RequireUser())
		se.Router.GET("/api/agreements/{id}/pdf", handlePDF).Bind(httpx.RequireUser())
		return se.Next()
	})
	// RecordAgreement starts each PDF after its signing commits, on this app (not the
	// transaction's, which is gone by then)
	app.Store().Set(rootAppKey, app)
	app.OnTerminate().BindFunc(func(e *core.TerminateEvent) error {
		generations(app).Wait() // no PDF is cut off half-written by a clean shutdown
		return e.Next()
	})
}

// getActive answers the active terms version, 404 when none is active.
func getActive(e *core.RequestEvent) error {
	v, err := FindActive(e.App)
	if errors.Is(err, ErrNoActiveTerms) {
		return apierr.NewCode(http.StatusNotFound, "", ErrNoActiveTerms.Error(), apierr.CodeNoActiveTerms)
	}
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, "Failed to load the terms and conditions.", err)
	}
	return e.JSON(http.StatusOK, v.ToActiveJSON())
}

func handleList(e *core.RequestEvent) error {
	vs, err := ListVersions(e.App)
	return httpx.Reply(e, vs, err)
}

// handleTemplate answers the built-in template, effective today in the operation's time zone.
func handleTemplate(e *core.RequestEvent) error {
	zone, err := system.Location(e.App)
	if err != nil {
		return apierr.Response(e, err)
	}
	t := BuiltInTemplate()
	t.Version = ""
	t.EffectiveDate = clock.DateString(clock.Now().In(zone))
	return e.JSON(http.StatusOK, t)
}

// maxVersionBody bounds a version's JSON: its content is the whole agreement.
const maxVersionBody = 4 << 20

func handleCreate(e *core.RequestEvent, in *VersionInput) error {
	v, err := CreateVersion(e.App, *in)
	return replyVersion(e, MsgVersionCreated, v, err)
}

func handleUpdate(e *core.RequestEvent, in *VersionInput) error {
	v, err := UpdateVersion(e.App, e.Request.PathValue("id"), *in)
	return replyVersion(e, MsgVersionUpdated, v, err)
}

func handleActivate(e *core.RequestEvent) error {
	v, err := Activate(e.App, e.Request.PathValue("id"))
	return replyVersion(e, MsgVersionActivated, v, err)
}

// replyVersion answers a version's change: {message, version}, or err as its ApiError.
func replyVersion(e *core.RequestEvent, message string, v VersionJSON, err error) error {
	return httpx.Reply(e, map[string]any{"message": message, "version": v}, err)
}

func handleAgreements(e *core.RequestEvent) error {
	rows, err := ListAgreements(e.App)
	return httpx.Reply(e, rows, err)
}

func handleRetry(e *core.RequestEvent) error {
	id := e.Request.PathValue("id")
	if _, err := FindAgreement(e.App, id); err != nil {
		return apierr.Response(e, err)
	}
	if err := Generate(e.App, id, clock.Now()); err != nil {
		var ae *apierr.Error
		if errors.As(err, &ae) {
			return apierr.Response(e, err)
		}
		// the reason is recorded on the agreement (pdfUrl "ERROR: …"); the answer says it too
		return apierr.Response(e, apierr.NewCode(http.StatusUnprocessableEntity, "", "PDF generation failed: "+err.Error(), apierr.CodePDFFailed))
	}
	return e.JSON(http.StatusOK, map[string]string{"message": MsgPDFRetried})
}

// handleMine answers the caller's latest agreement, so a pending registrant can open the copy
// they signed.
func handleMine(e *core.RequestEvent) error {
	row, err := LatestAgreementOf(e.App, e.Auth.Id)
	return httpx.Reply(e, row, err)
}

// handlePDF streams an agreement's PDF to admins and to its signer.
func handlePDF(e *core.RequestEvent) error {
	a, err := FindAgreement(e.App, e.Request.PathValue("id"))
	if err != nil {
		return apierr.Response(e, err)
	}
	if a.SignerId() != e.Auth.Id {
		if err := httpx.Blocked(e); err != nil {
			return err // a pending or suspended admin opens only their own, as any route refuses them
		}
		if !roles.IsAdmin(e.Auth.GetString(schema.UserRole)) {
			return apierr.Response(e, apierr.Forbidden("You can only open your own agreement"))
		}
	}
	r, size, err := OpenPDF(e.App, a)
	if err != nil {
		return apierr.Response(e, err)
	}
	defer r.Close()
	h := e.Response.Header()
	h.Set("Content-Type", "application/pdf")
	h.Set("Content-Length", fmt.Sprint(size))
	h.Set("Content-Disposition", `inline; filename="agreement-`+a.Id+`.pdf"`)
	h.Set("Cache-Control", "private, no-store")
	e.Response.WriteHeader(http.StatusOK)
	_, err = io.Copy(e.Response, r)
	return err
}
