// Package debuginfo answers GET /api/debug/info for /mobile-debug (spec part 2 §2): what the
// server knows about itself and about the caller, so a driver on a phone can show an admin
// what the server sees, and an admin can check the server's health at a glance.
package debuginfo

import (
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/httpx"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/jobs"
	"swapbay/modules/realtime"
	"swapbay/modules/replication"
	"swapbay/modules/system"
)

// Routes:
//
//	GET /api/debug/info   any signed-in user (any approval)   Info; admins also get Info.Admin
func Register(app core.App) {
	started := clock.Now()
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET("/api/debug/info", func(e *core.RequestEvent) error { return handleInfo(e, started) }).
			Bind(httpx.RequireUser())
		return se.Next()
	})
}

// Info is the answer of GET /api/debug/info.
type Info struct {
	ServerTime   time.Time `json:"serverTime"`
	TimeZone     string    `json:"timeZone"`
	LocalTime    string    `json:"localTime"` // server time in the operation's time zone
	Version      string    `json:"version"`
	Commit       string    `json:"commit"`
	CommitTime   string    `json:"commitTime"`
	Modified     bool      `json:"modified"` // built from a tree with uncommitted changes
	UserId       string    `json:"userId"`
	Role         string    `json:"role"`
	Approval     string    `json:"approval"`
	IP           string    `json:"ip"`
	UserAgent    string    `json:"userAgent"`
	Admin        *Admin    `json:"admin,omitempty"`
	RequestProto string    `json:"requestProto"`
}

// Admin is the server health part, for admins and master admins only.
type Admin struct {
	Uptime        string       `json:"uptime"`
	StartedAt     time.Time    `json:"startedAt"`
	GoVersion     string       `json:"goVersion"`
	DatabaseBytes int64        `json:"databaseBytes"`
	SocketClients int          `json:"socketClients"`
	Jobs          []jobs.State `json:"jobs"`
	// Replication is the continuous replication of data.db (DESIGN.md §13); its Warning is
	// set when the lag passes 60 s or uploads fail
	Replication replication.Status `json:"replication"`
}

func handleInfo(e *core.RequestEvent, started time.Time) error {
	settings, err := system.Load(e.App)
	if err != nil {
		return apierr.Response(e, err)
	}
	now := clock.Now()
	info := Info{
		ServerTime:   now.UTC(),
		TimeZone:     settings.Location().String(),
		LocalTime:    now.In(settings.Location()).Format("2006-01-02 15:04:05 MST"),
		UserId:       e.Auth.Id,
		Role:         e.Auth.GetString(schema.UserRole),
		Approval:     e.Auth.GetString(schema.UserIsApproved),
		IP:           e.RealIP(),
		UserAgent:    e.Request.UserAgent(),
		RequestProto: e.Request.Proto,
	}
	info.Version, info.Commit, info.CommitTime, info.Modified = build()
	if roles.IsAdmin(info.Role) && info.Approval == roles.Approved {
		info.Admin = &Admin{
			Uptime:        clock.Since(started).Round(time.Second).String(),
			StartedAt:     started.UTC(),
			GoVersion:     runtime.Version(),
			DatabaseBytes: databaseBytes(e.App.DataDir()),
			SocketClients: realtime.Clients(e.App),
			Jobs:          jobs.States(e.App),
			Replication:   replication.StatusOf(e.App),
		}
	}
	return e.JSON(http.StatusOK, info)
}

// build reads the module version and the VCS stamp `go build` embeds.
func build() (version, commit, commitTime string, modified bool) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown", "", "", false
	}
	version = bi.Main.Version
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
		case "vcs.time":
			commitTime = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	return version, commit, commitTime, modified
}

// databaseBytes is the size of the SQLite files (with their write-ahead logs) in dataDir.
func databaseBytes(dataDir string) int64 {
	var n int64
	for _, name := range []string{"data.db", "data.db-wal", "auxiliary.db", "auxiliary.db-wal"} {
		if fi, err := os.Stat(filepath.Join(dataDir, name)); err == nil {
			n += fi.Size()
		}
	}
	return n
}
