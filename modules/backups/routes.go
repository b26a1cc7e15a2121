package backups

import (
	"context"
	"net/http"
	"slices"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/events"
	"swapbay/lib/httpx"
	"swapbay/lib/idempotency"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
	"swapbay/modules/system"
)

// Routes (admins and master admins):
//
//	GET  /api/admin/backups   {schedule: Schedule, backups: [Backup] newest first, last: Backup|null}
//	PUT  /api/admin/backups   {enabled, time: "HH:MM", keep}  → {message, schedule}
//	POST /api/admin/backups   {}                              → {message, backup}  (a backup now)
//
// The schedule lives in PocketBase's backup settings (also editable at /_/, where the S3
// upload is configured); the cron counts time in the operation's time zone.
func Register(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		applyOperationZone(se.App)
		admin := se.Router.Group("/api/admin/backups")
		admin.Bind(httpx.RequireAdmin())
		admin.GET("", handleList)
		admin.PUT("", httpx.Form(handleSchedule)).Bind(idempotency.Keyed())
		admin.POST("", handleCreate).Bind(idempotency.Skip("VACUUM INTO cannot run in a transaction"))
		return se.Next()
	})
	// a saved time_zone setting moves the backup time with it, once the save commits
	cancel := events.For(app).Subscribe(func(m events.Message) {
		if c, ok := m.Data.(events.SettingsChange); ok && m.Type == events.SettingsSaved && slices.Contains(c.Keys, schema.SettingTimeZone) {
			applyOperationZone(app)
		}
	})
	app.OnTerminate().BindFunc(func(e *core.TerminateEvent) error {
		cancel()
		return e.Next()
	})
}

func applyOperationZone(app core.App) {
	s, err := system.Load(app)
	if err != nil {
		app.Logger().Warn("backups: could not read the time zone; the backup cron keeps its zone", "error", err)
		return
	}
	ApplyTimeZone(app, s.Location())
}

func handleList(e *core.RequestEvent) error {
	list, err := List(e.App)
	if err != nil {
		return apierr.Response(e, err)
	}
	var last *Backup
	if len(list) > 0 {
		last = &list[0]
	}
	return e.JSON(http.StatusOK, map[string]any{"schedule": ScheduleOf(e.App), "backups": list, "last": last})
}

type scheduleForm struct {
	Enabled bool     `json:"enabled"`
	Time    string   `json:"time"`
	Keep    reqx.Int `json:"keep"`
}

func handleSchedule(e *core.RequestEvent, f *scheduleForm) error {
	keep, err := f.Keep.In("keep", 1, MaxKeep, MsgKeepInvalid)
	if err != nil {
		return apierr.Response(e, err)
	}
	s, err := SetSchedule(e.App, f.Enabled, f.Time, keep)
	return httpx.Reply(e, map[string]any{"success": true, "message": "Backup schedule saved", "schedule": s}, err)
}

func handleCreate(e *core.RequestEvent) error {
	b, err := Create(context.WithoutCancel(e.Request.Context()), e.App)
	return httpx.Reply(e, map[string]any{"success": true, "message": "Backup created", "backup": b}, err)
}
