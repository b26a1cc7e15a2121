// Package photos is SwapBay's photos module (DESIGN.md §9): drivers send photos of broken
// scooters through one-time signed upload URLs; admins and the liaison review and delete them.
package photos

import (
	"fmt"
	"log/slog"
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
)

// Register adds the photo routes:
//
//	POST   /api/objects/upload            approved users          → {uploadURL} (one-time, 15 min, for the caller)
//	PUT    /api/objects/uploads/{id}?exp&sig  the URL's user       image bytes → {id, sha256}; 413 > 10 MB or over
//	                                                                Limits, 415 not JPEG/PNG/WebP or deeper than 8 bits;
//	                                                                EXIF/GPS dropped; PutLimit (429)
//	POST   /api/photos/upload             approved users          {filename, url, notes|null, occurredAt?} → Photo (claims the upload;
//	                                                                occurredAt, the tap, bounded as the driver writes' → takenAt)
//	GET    /api/photos                    admins, liaison: all;   → [Photo] newest first
//	                                      drivers: their own
//	GET    /api/photos/{id}/image         as GET /api/photos      the image (?thumb=1: 400x400 thumbnail)
//	DELETE /api/photos/mass               admins, liaison         {photoIds} → {success, message, deleted}; all or nothing
//	DELETE /api/photos/{id}               admins, liaison         → {success, message}
//
// The PUT streams its body (never buffered whole): it is bound idempotency.Skip(), so a keyed
// PUT is not read into memory before a write transaction.
func Register(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		user := se.Router.Group("/api")
		user.Bind(httpx.RequireApproved())
		user.POST("/objects/upload", handleNewUploadURL).Bind(idempotency.Keyed())
		// streams up to 10 MB of image bytes to storage, never buffered whole nor held in the
		// write transaction; its signed URL is one-time, so a repeat is refused anyway
		user.PUT("/objects/uploads/{id}", handlePut).Bind(idempotency.Skip("streams up to 10 MB of image bytes"), PutLimit.Handler())
		user.POST("/photos/upload", httpx.Form(handleClaim)).Bind(idempotency.Keyed())
		user.GET("/photos", handleList)
		user.GET("/photos/{id}/image", handleImage)

		reviewers := se.Router.Group("/api/photos")
		reviewers.Bind(httpx.RequireRoles(roles.Admin, roles.MasterAdmin, roles.Liaison))
		reviewers.DELETE("/mass", httpx.Form(handleMassDelete)).Bind(idempotency.Keyed())
		reviewers.DELETE("/{id}", handleDelete).Bind(idempotency.Keyed())
		return se.Next()
	})
}

// PutLimit bounds image uploads (each header read and, for a JPEG, a decode): a driver sends a
// few photos at a time; a bay's phones share one address.
var PutLimit = ratelimit.Limit{Name: "PUT /api/objects/uploads",
	PerAccount: ratelimit.Rule{N: 30, Window: time.Minute}, PerIP: ratelimit.Rule{N: 300, Window: time.Minute}}

func handleNewUploadURL(e *core.RequestEvent) error {
	u, err := NewUploadURL(e.App, e.Auth.Id, clock.Now())
	return httpx.Reply(e, map[string]string{"uploadURL": u}, err)
}

func handlePut(e *core.RequestEvent) error {
	q := e.Request.URL.Query()
	rec, err := Receive(e.App, e.Auth.Id, e.Request.PathValue("id"), q.Get("exp"), q.Get("sig"), e.Request.Body, clock.Now())
	if err != nil {
		return apierr.Response(e, err)
	}
	return e.JSON(http.StatusOK, map[string]string{"id": rec.Id, "sha256": rec.GetString(schema.PhotoSHA256)})
}

func handleClaim(e *core.RequestEvent, f *ClaimForm) error {
	p, err := Claim(e.App, e.Auth.Id, *f, clock.Now())
	return httpx.Reply(e, p, err)
}

func handleList(e *core.RequestEvent) error {
	list, err := List(e.App, e.Auth.Id, CanSeeAll(e.Auth.GetString(schema.UserRole)))
	return httpx.Reply(e, list, err)
}

func handleImage(e *core.RequestEvent) error {
	rec, err := Find(e.App, e.Request.PathValue("id"), e.Auth.Id, CanSeeAll(e.Auth.GetString(schema.UserRole)))
	if err != nil {
		return apierr.Response(e, err)
	}
	name := rec.GetString(schema.PhotoFile)
	if name == "" {
		return apierr.Response(e, apierr.NotFound(MsgPhotoNotFound))
	}
	fsys, err := e.App.NewFilesystem()
	if err != nil {
		return apierr.Response(e, err)
	}
	defer fsys.Close()
	key := rec.BaseFilesPath() + "/" + name
	served := key
	if e.Request.URL.Query().Get("thumb") != "" {
		thumb := thumbKey(rec, name)
		if ok, _ := fsys.Exists(thumb); ok {
			served = thumb
		} else if err := makeThumb(fsys, key, thumb); err == nil {
			served = thumb
		} else {
			e.App.Logger().Warn("photo thumb failed, serving the original", slog.String("error", err.Error()))
		}
	}
	e.Response.Header().Set("Cache-Control", "private, max-age=86400")
	e.Response.Header().Set("X-Content-Type-Options", "nosniff")
	if err := fsys.Serve(e.Response, e.Request, served, rec.GetString(schema.PhotoFilename)); err != nil {
		return apierr.Response(e, apierr.NotFound(MsgPhotoNotFound))
	}
	return nil
}

func handleDelete(e *core.RequestEvent) error {
	_, err := Delete(e.App, []string{e.Request.PathValue("id")})
	return httpx.Reply(e, map[string]any{"success": true, "message": "Photo has been completely removed from all systems"}, err)
}

type massForm struct {
	PhotoIds []string `json:"photoIds"`
}

func handleMassDelete(e *core.RequestEvent, f *massForm) error {
	n, err := Delete(e.App, f.PhotoIds)
	return httpx.Reply(e, map[string]any{"success": true, "deleted": n,
		"message": fmt.Sprintf("Successfully deleted %d photos", n)}, err)
}
