package replication

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/benbjohnson/litestream/file"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/records"
	"swapbay/lib/schema"
)

// Messages of PUT /api/admin/replication.
const (
	MsgSaved          = "Replication settings saved"
	MsgSetByServer    = "Replication is set by the server's flag/environment; change it there"
	MsgURLRequired    = "Replica URL is required to turn replication on"
	MsgURLCredentials = "Put the access key ID and the secret in their own fields, not in the URL"
	MsgURLForm        = "Replica URL must be s3://bucket/path?endpoint=…&region=… or file:///absolute/dir"
	// MsgURLInDataDir refuses a file replica inside the data directory it guards.
	MsgURLInDataDir = "The replica directory must be outside this city's data directory: a replica inside it is lost with the disk it guards and copied into every backup"
	// MsgUnreachable is followed by the target (without credentials) and the cause.
	MsgUnreachable = "Could not reach the replica at %s: %s"
	// MsgStartFailed is the System page's warning when the configured replica did not start
	// (%s: where it was set), followed by the reason in plain words.
	MsgStartFailed = "Replication is on (set by %s) but did not start: "
	// MsgNewKeysRequired refuses a changed endpoint or bucket without new keys: the saved keys
	// belong to the previous one and are cleared.
	MsgNewKeysRequired = "Changing the endpoint or bucket clears the saved keys: enter the access key ID and the secret for the new one"
)

// Stored is the replica a master admin set on the System page (collection
// replication_settings, one row): a flag or the environment wins over it (configured).
type Stored struct {
	Enabled bool
	Config
}

// Form is the System page's form as a master admin sees it: the stored URL, and of the
// credentials only whether they are set (they are never answered). SetBy is "flag" or "env"
// when the server's own value wins: the form is read-only then.
type Form struct {
	Enabled            bool   `json:"enabled"`
	URL                string `json:"url"`
	AccessKeyIDSet     bool   `json:"accessKeyIdSet"`
	SecretAccessKeySet bool   `json:"secretAccessKeySet"`
	SetBy              string `json:"setBy,omitempty"`
}

// Input is what the form sends. A blank key or secret keeps the stored one; a file:// URL
// drops both (a directory needs none).
type Input struct {
	Enabled         bool   `json:"enabled"`
	URL             string `json:"url"`
	AccessKeyID     string `json:"accessKeyId"`
	SecretAccessKey string `json:"secretAccessKey"`
}

// LoadStored reads the stored replica settings (zero when none were saved).
func LoadStored(app core.App) (Stored, error) {
	rec, err := app.FindRecordById(schema.ReplicationSettings, schema.ReplicationSettingsRowID)
	if errors.Is(err, sql.ErrNoRows) {
		return Stored{}, nil
	}
	if err != nil {
		return Stored{}, fmt.Errorf("read the replication settings: %w", err)
	}
	return Stored{Enabled: rec.GetBool(schema.ReplicationEnabled), Config: Config{
		URL:             rec.GetString(schema.ReplicationURL),
		AccessKeyID:     rec.GetString(schema.ReplicationAccessKeyID),
		SecretAccessKey: rec.GetString(schema.ReplicationSecretKey),
		Source:          "settings",
	}}, nil
}

// saveStored writes s as the one row, in a transaction of its own.
func saveStored(app core.App, s Stored, by string) error {
	return app.RunInTransaction(func(txApp core.App) error {
		rec, err := txApp.FindRecordById(schema.ReplicationSettings, schema.ReplicationSettingsRowID)
		if errors.Is(err, sql.ErrNoRows) {
			if rec, err = records.New(txApp, schema.ReplicationSettings); err != nil {
				return err
			}
			rec.Id = schema.ReplicationSettingsRowID
		} else if err != nil {
			return err
		}
		rec.Set(schema.ReplicationEnabled, s.Enabled)
		rec.Set(schema.ReplicationURL, s.URL)
		rec.Set(schema.ReplicationAccessKeyID, s.AccessKeyID)
		rec.Set(schema.ReplicationSecretKey, s.SecretAccessKey)
		rec.Set(schema.ReplicationUpdatedBy, by)
		return txApp.Save(rec)
	})
}

// serverConfig is the flag's or the environment's replica (URL blank when neither is set).
func serverConfig(app core.App) Config {
	cfg := FromEnv()
	if u := optionsOf(app).ServerURL; u != "" {
		cfg.URL, cfg.Source = u, "flag"
	}
	return cfg
}

// configured is the replica to run: the flag, else the environment, else the System page's
// settings when they are on (URL blank: none).
func configured(app core.App) (Config, error) {
	if cfg := serverConfig(app); cfg.URL != "" {
		return cfg, nil
	}
	s, err := LoadStored(app)
	if err != nil || !s.Enabled {
		return Config{}, err
	}
	return s.Config, nil
}

// FormOf is the form as the System page shows it to a master admin.
func FormOf(app core.App) (Form, error) {
	s, err := LoadStored(app)
	if err != nil {
		return Form{}, err
	}
	if cfg := serverConfig(app); cfg.URL != "" {
		// the replica that runs: on, read-only, with where it was set
		return Form{Enabled: true, URL: cfg.Target(), AccessKeyIDSet: cfg.AccessKeyID != "" || os.Getenv("AWS_ACCESS_KEY_ID") != "",
			SecretAccessKeySet: cfg.SecretAccessKey != "" || os.Getenv("AWS_SECRET_ACCESS_KEY") != "", SetBy: cfg.Source}, nil
	}
	return Form{Enabled: s.Enabled, URL: s.URL, AccessKeyIDSet: s.AccessKeyID != "", SecretAccessKeySet: s.SecretAccessKey != ""}, nil
}

// CheckURL is checkURL for head office's cities (modules/hq): a city's replica URL is stored
// and refused by the same rules as the System page's.
func CheckURL(raw string) error { return checkURL(raw) }

// SameEndpoint is sameEndpoint for head office's cities: saved keys stay only while the
// endpoint and bucket stay.
func SameEndpoint(a, b string) bool { return sameEndpoint(a, b) }

// checkURL refuses a URL the form must not store: credentials inside it (they would be shown
// back), a scheme or path Config cannot replicate to. raw is trimmed.
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "s3" && u.Scheme != "file") {
		return apierr.Invalid("url", MsgURLForm)
	}
	if u.User != nil {
		return apierr.Invalid("url", MsgURLCredentials)
	}
	for k := range u.Query() {
		if lk := strings.ToLower(k); strings.Contains(lk, "secret") || strings.Contains(lk, "key") || strings.Contains(lk, "token") || strings.Contains(lk, "password") {
			return apierr.Invalid("url", MsgURLCredentials)
		}
	}
	switch u.Scheme {
	case "file":
		if u.Host != "" || !filepath.IsAbs(u.Path) {
			return apierr.Invalid("url", MsgURLForm)
		}
	case "s3":
		if u.Host == "" {
			return apierr.Invalid("url", MsgURLForm)
		}
	}
	if _, err := (Config{URL: raw}).Client(); err != nil {
		return apierr.Invalid("url", MsgURLForm)
	}
	return nil
}

// outsideDataDir refuses a file:// replica at or inside dataDir (the paths as written and with
// their symbolic links followed): the replica would go down with the disk it is there to
// outlive (DESIGN.md §13), be zipped into every backup of the data dir, and be restored with it.
func outsideDataDir(dataDir, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "file" || dataDir == "" {
		return nil
	}
	inside := func(dir, path string) bool {
		rel, err := filepath.Rel(dir, path)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	}
	dirs, paths := []string{}, []string{filepath.Clean(u.Path)}
	if abs, err := filepath.Abs(dataDir); err == nil {
		dirs = append(dirs, abs)
	}
	if real, err := filepath.EvalSymlinks(dataDir); err == nil {
		dirs = append(dirs, real)
	}
	if real := resolveExisting(paths[0]); real != "" {
		paths = append(paths, real)
	}
	for _, d := range dirs {
		for _, p := range paths {
			if inside(d, p) {
				return apierr.Invalid("url", MsgURLInDataDir)
			}
		}
	}
	return nil
}

// resolveExisting is path with the symbolic links of its longest existing ancestor followed
// (the replica directory may not exist yet), "" when none resolves.
func resolveExisting(path string) string {
	rest := ""
	for p := path; ; p = filepath.Dir(p) {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(real, rest)
		}
		if p == filepath.Dir(p) {
			return ""
		}
		rest = filepath.Join(filepath.Base(p), rest)
	}
}

// Reach checks that cfg's replica answers with its credentials: a directory is created if
// needed and written to; an S3 bucket is listed. It runs no database work (the route calls it
// outside any write transaction).
func Reach(ctx context.Context, cfg Config) error {
	client, err := cfg.Client()
	if err != nil {
		return err
	}
	if fc, ok := client.(*file.ReplicaClient); ok {
		if err := os.MkdirAll(fc.Path(), 0o755); err != nil {
			return err
		}
		f, err := os.CreateTemp(fc.Path(), ".swapbay-probe-*")
		if err != nil {
			return err
		}
		f.Close()
		return os.Remove(f.Name())
	}
	if err := client.Init(ctx); err != nil {
		return caHint(err)
	}
	itr, err := client.LTXFiles(ctx, 0, 0, false)
	if err != nil {
		return caHint(err)
	}
	defer itr.Close()
	itr.Next()
	return caHint(itr.Err())
}

// applyMu serialises changes of the running replication (one at a time per process).
var applyMu sync.Mutex

// Configure saves a master admin's replica settings and applies them at once: the running
// replication stops, the new one starts (none when off). A flag or environment value wins
// (409); a bad URL is a 400 and a replica that does not answer a 422 replica_unreachable, with
// nothing saved and the replication as it was. The network check and Litestream's start run
// outside any write transaction (the route is bound idempotency.Skip()); a repeat of the same
// settings leaves the running replication alone.
func Configure(ctx context.Context, app core.App, by string, in Input) (Form, error) {
	if cfg := serverConfig(app); cfg.URL != "" {
		return Form{}, apierr.Conflict(MsgSetByServer)
	}
	applyMu.Lock()
	defer applyMu.Unlock()
	prev, err := LoadStored(app)
	if err != nil {
		return Form{}, err
	}
	next := Stored{Enabled: in.Enabled, Config: Config{URL: strings.TrimSpace(in.URL), Source: "settings",
		AccessKeyID: strings.TrimSpace(in.AccessKeyID), SecretAccessKey: strings.TrimSpace(in.SecretAccessKey)}}
	if next.URL == "" && next.Enabled {
		return Form{}, apierr.Invalid("url", MsgURLRequired)
	}
	if next.URL != "" {
		if err := checkURL(next.URL); err != nil {
			return Form{}, err
		}
		if err := outsideDataDir(app.DataDir(), next.URL); err != nil {
			return Form{}, err
		}
	}
	// the saved keys belong to the endpoint and bucket they were saved for: a blank field keeps
	// them only while those stay; another endpoint or bucket needs its own keys (the saved ones
	// are cleared, never sent to the new host)
	if sameEndpoint(prev.URL, next.URL) {
		if next.AccessKeyID == "" {
			next.AccessKeyID = prev.AccessKeyID
		}
		if next.SecretAccessKey == "" {
			next.SecretAccessKey = prev.SecretAccessKey
		}
	} else if next.Enabled && strings.HasPrefix(next.URL, "s3:") && prev.AccessKeyID+prev.SecretAccessKey != "" &&
		(next.AccessKeyID == "" || next.SecretAccessKey == "") {
		field := "accessKeyId"
		if next.AccessKeyID != "" {
			field = "secretAccessKey"
		}
		return Form{}, apierr.Invalid(field, MsgNewKeysRequired)
	}
	if strings.HasPrefix(next.URL, "file:") {
		next.AccessKeyID, next.SecretAccessKey = "", ""
	}

	running := Of(app)
	same := running != nil && next.Enabled && running.cfg.URL == next.URL &&
		running.cfg.AccessKeyID == next.AccessKeyID && running.cfg.SecretAccessKey == next.SecretAccessKey
	if next.Enabled && !same {
		rctx, cancel := context.WithTimeout(ctx, optionsOf(app).ReachTimeout)
		err := Reach(rctx, next.Config)
		cancel()
		if err != nil {
			return Form{}, unreachable(next.Config, err)
		}
	}
	if !same {
		if err := swap(app, running, next); err != nil {
			return Form{}, err
		}
	}
	if err := saveStored(app, next, by); err != nil {
		// put the replication back as the stored settings have it
		if !same {
			_ = swap(app, Of(app), prev)
		}
		return Form{}, err
	}
	return FormOf(app)
}

// unreachable is the 422 for a replica that did not answer: the failure in plain words
// (Explain), never the client's text or the remote body, never the credentials.
func unreachable(cfg Config, err error) error {
	return apierr.NewCode(http.StatusUnprocessableEntity, "url", fmt.Sprintf(MsgUnreachable, cfg.Target(), Explain(err)), apierr.CodeReplicaUnreachable)
}

// sameEndpoint reports whether the replica URLs a and b name the same S3 endpoint and bucket
// (scheme, bucket, endpoint and region; the path inside the bucket may differ). A blank a
// (nothing saved) is the same as anything: there are no keys to protect.
func sameEndpoint(a, b string) bool {
	if a == "" {
		return true
	}
	ua, errA := url.Parse(a)
	ub, errB := url.Parse(b)
	if errA != nil || errB != nil {
		return false
	}
	qa, qb := ua.Query(), ub.Query()
	return ua.Scheme == ub.Scheme && ua.Host == ub.Host &&
		strings.TrimRight(qa.Get("endpoint"), "/") == strings.TrimRight(qb.Get("endpoint"), "/") && qa.Get("region") == qb.Get("region")
}

// swap stops running (nil: none) after a last sync and starts next when it is on. When next
// cannot start, the previous replication is started again and next's error returned as a 422.
func swap(app core.App, running *Replicator, next Stored) error {
	if running != nil {
		ctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
		if err := running.Close(ctx); err != nil {
			app.Logger().Error("replication: last sync before stopping failed", "error", err.Error())
		}
		cancel()
		app.Store().Remove(storeKey)
		app.Logger().Info("replication stopped", "target", running.cfg.Target())
	}
	app.Store().Remove(startErrKey)
	if !next.Enabled {
		return nil
	}
	if err := startIn(app, next.Config); err != nil {
		if running != nil {
			if rerr := startIn(app, running.cfg); rerr != nil {
				app.Logger().Error("replication: could not restart the previous replica", "error", rerr.Error())
			}
		}
		return unreachable(next.Config, err)
	}
	return nil
}

// startIn starts replicating app's data.db to cfg and keeps the Replicator in app's store.
func startIn(app core.App, cfg Config) error {
	r, err := Start(context.Background(), filepath.Join(app.DataDir(), "data.db"), cfg, optionsOf(app), app.Logger().With("module", "replication"))
	if err != nil {
		return err
	}
	app.Store().Set(storeKey, r)
	app.Logger().Info("replicating data.db", "target", cfg.Target(), "source", cfg.Source, "litestream", LitestreamVersion)
	return nil
}
