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
	"swapbay/lib/httpx"
	"swapbay/lib/reqx"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
)

// Register adds the terms routes and the after-commit PDF generation to app:
//
//	GET  /api/terms-content/active               everyone, guests too    the active version
//	GET  /api/admin/terms-content                admins                  every version (+ signedCount)
//	GET  /api/admin/terms-template               admins                  the built-in 2025 template
//	POST /api/admin/terms-content                admins  {version, title, content, effectiveDate}
//	PUT  /api/admin/terms-content/{id}           admins  same fields; 409 once signed
//	POST /api/admin/terms-content/{id}/activate  admins  the one active version
//	GET  /api/admin/terms-agreements             admins  every agreement, newest first
//	POST /api/admin/retry-pdf/{id}               admins  regenerate now → {message}
//	GET  /api/agreements/{id}/pdf                admins and the signer (guests 401, others 403)
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
		admin.POST("/terms-content", handleCreate)
		admin.PUT("/terms-content/{id}", handleUpdate)
		admin.POST("/terms-content/{id}/activate", handleActivate)
		admin.GET("/terms-agreements", handleAgreements)
		admin.POST("/retry-pdf/{id}", handleRetry)
		se.Router.GET("/api/agreements/{id}/pdf", handlePDF).Bind(httpx.RequireApproved())
		return se.Next()
	})
	// the PDF is made once the signing has committed (PocketBase runs *Success hooks of a
	// transaction after its commit), in the background: signing never waits for it
	app.OnRecordAfterCreateSuccess(schema.Agreements).BindFunc(func(e *core.RecordEvent) error {
		id := e.Record.Id
		wg := generations(app)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := Generate(app, id, time.Now()); err != nil && !errors.Is(err, ErrInProgress) {
				app.Logger().Warn("agreement PDF failed; the pdf job will retry", "agreement", id, "error", err.Error())
			}
		}()
		return e.Next()
	})
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
	if err != nil {
		return apierr.Response(e, err)
	}
	return e.JSON(http.StatusOK, vs)
}

func handleTemplate(e *core.RequestEvent) error {
	t := BuiltInTemplate()
	t.Version = ""
	t.EffectiveDate = time.Now().UTC().Format(time.DateOnly)
	return e.JSON(http.StatusOK, t)
}

func handleCreate(e *core.RequestEvent) error {
	var in VersionInput
	if err := reqx.Decode(e, &in, 4<<20); err != nil {
		return apierr.Response(e, err)
	}
	v, err := CreateVersion(e.App, in)
	if err != nil {
		return apierr.Response(e, err)
	}
	return e.JSON(http.StatusOK, map[string]any{"message": MsgVersionCreated, "version": v})
}

func handleUpdate(e *core.RequestEvent) error {
	var in VersionInput
	if err := reqx.Decode(e, &in, 4<<20); err != nil {
		return apierr.Response(e, err)
	}
	v, err := UpdateVersion(e.App, e.Request.PathValue("id"), in)
	if err != nil {
		return apierr.Response(e, err)
	}
	return e.JSON(http.StatusOK, map[string]any{"message": MsgVersionUpdated, "version": v})
}

func handleActivate(e *core.RequestEvent) error {
	v, err := Activate(e.App, e.Request.PathValue("id"))
	if err != nil {
		return apierr.Response(e, err)
	}
	return e.JSON(http.StatusOK, map[string]any{"message": MsgVersionActivated, "version": v})
}

func handleAgreements(e *core.RequestEvent) error {
	rows, err := ListAgreements(e.App)
	if err != nil {
		return apierr.Response(e, err)
	}
	return e.JSON(http.StatusOK, rows)
}

func handleRetry(e *core.RequestEvent) error {
	id := e.Request.PathValue("id")
	if _, err := FindAgreement(e.App, id); err != nil {
		return apierr.Response(e, err)
	}
	if err := Generate(e.App, id, time.Now()); err != nil {
		var ae *apierr.Error
		if errors.As(err, &ae) {
			return apierr.Response(e, err)
		}
		// the reason is recorded on the agreement (pdfUrl "ERROR: …"); the answer says it too
		return apierr.Response(e, apierr.NewCode(http.StatusUnprocessableEntity, "", "PDF generation failed: "+err.Error(), apierr.CodePDFFailed))
	}
	return e.JSON(http.StatusOK, map[string]string{"message": MsgPDFRetried})
}

// handlePDF streams an agreement's PDF to admins and to its signer.
func handlePDF(e *core.RequestEvent) error {
	a, err := FindAgreement(e.App, e.Request.PathValue("id"))
	if err != nil {
		return apierr.Response(e, err)
	}
	if !roles.IsAdmin(e.Auth.GetString(schema.UserRole)) && a.SignerId() != e.Auth.Id {
		return apierr.Response(e, apierr.Forbidden("You can only open your own agreement"))
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
