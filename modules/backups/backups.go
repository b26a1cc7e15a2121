// Package backups keeps yesterday's data recoverable (DESIGN.md §11): PocketBase's own
// scheduled backups (a consistent `VACUUM INTO` snapshot of the databases plus the stored
// files, zipped; uploaded to S3-compatible storage when PocketBase's backup S3 settings are
// on), run daily at a time of day in the operation's time zone and keeping the newest N;
// the schedule and the list of backups for /admin-system. `swapbay restore` of an archive is
// modules/restore.
package backups

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
)

// Defaults of a new installation (set by migration): daily at 03:00, 7 kept.
const (
	DefaultTime = "03:00"
	DefaultKeep = 7
	MaxKeep     = 100
)

// Messages.
const (
	MsgTimeInvalid   = "Backup time must be a time of day as HH:MM"
	MsgKeepInvalid   = "Backups to keep must be a whole number from 1 to 100"
	MsgBackupRunning = "A backup or restore is already running. Please try again in a minute."
)

// Schedule is the backup schedule as /admin-system shows and edits it.
type Schedule struct {
	Enabled bool   `json:"enabled"`
	Time    string `json:"time"`   // HH:MM in the operation's time zone; "" when Custom
	Keep    int    `json:"keep"`   // newest automatic backups kept
	Custom  string `json:"custom"` // a cron expression set at /_/ that is not a daily time
	S3      bool   `json:"s3"`     // uploaded to S3-compatible storage (PocketBase settings)
}

var dailyCron = regexp.MustCompile(`^(\d{1,2}) (\d{1,2}) \* \* \*$`)

// ScheduleOf reads the schedule from PocketBase's backup settings.
func ScheduleOf(app core.App) Schedule { return scheduleOf(app.Settings().Backups) }

// scheduleOf reads the schedule from backup settings b.
func scheduleOf(b core.BackupsConfig) Schedule {
	s := Schedule{Enabled: b.Cron != "", Keep: b.CronMaxKeep, S3: b.S3.Enabled}
	if m := dailyCron.FindStringSubmatch(strings.TrimSpace(b.Cron)); m != nil {
		minute, _ := strconv.Atoi(m[1])
		hour, _ := strconv.Atoi(m[2])
		s.Time = fmt.Sprintf("%02d:%02d", hour, minute)
	} else if b.Cron != "" {
		s.Custom = b.Cron
	}
	return s
}

// ParseTime parses "HH:MM" (24 h) into hour and minute.
func ParseTime(v string) (hour, minute int, err error) {
	t, perr := time.Parse("15:04", strings.TrimSpace(v))
	if perr != nil {
		return 0, 0, apierr.Invalid("time", MsgTimeInvalid)
	}
	return t.Hour(), t.Minute(), nil
}

// SetSchedule validates and saves a daily schedule (enabled at hh:mm, keeping keep) into
// PocketBase's backup settings, which also reschedule PocketBase's backup cron job.
func SetSchedule(app core.App, enabled bool, at string, keep int) (Schedule, error) {
	hour, minute, err := ParseTime(at)
	if err != nil {
		return Schedule{}, err
	}
	if keep < 1 || keep > MaxKeep {
		return Schedule{}, apierr.Invalid("keep", MsgKeepInvalid)
	}
	settings, err := app.Settings().Clone()
	if err != nil {
		return Schedule{}, err
	}
	settings.Backups.Cron = ""
	if enabled {
		settings.Backups.Cron = fmt.Sprintf("%d %d * * *", minute, hour)
	}
	settings.Backups.CronMaxKeep = keep
	if err := app.Save(settings); err != nil {
		return Schedule{}, err
	}
	// what was saved: inside a transaction (a keyed request) app.Settings() is the old
	// settings until the commit
	return scheduleOf(settings.Backups), nil
}

// Backup is one stored backup archive.
type Backup struct {
	Name     string    `json:"name"`
	Size     int64     `json:"size"`
	Modified time.Time `json:"modified"`
}

// List returns the stored backups, newest first.
func List(app core.App) ([]Backup, error) {
	fsys, err := app.NewBackupsFilesystem()
	if err != nil {
		return nil, err
	}
	defer fsys.Close()
	objs, err := fsys.List("")
	if err != nil {
		return nil, err
	}
	out := make([]Backup, 0, len(objs))
	for _, o := range objs {
		out = append(out, Backup{Name: o.Key, Size: o.Size, Modified: o.ModTime.UTC()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Modified.After(out[j].Modified) })
	return out, nil
}

// Create makes a backup now under a SwapBay name and returns it. It is safe while the
// server writes: the databases are copied with VACUUM INTO, a consistent snapshot.
func Create(ctx context.Context, app core.App) (Backup, error) {
	name := "swapbay_" + clock.Now().UTC().Format("20060102_150405") + ".zip"
	if err := app.CreateBackup(ctx, name); err != nil {
		if app.Store().Has(core.StoreKeyActiveBackup) {
			return Backup{}, apierr.Conflict(MsgBackupRunning)
		}
		return Backup{}, err
	}
	list, err := List(app)
	if err != nil {
		return Backup{}, err
	}
	for _, b := range list {
		if b.Name == name {
			return b, nil
		}
	}
	return Backup{Name: name, Modified: clock.Now().UTC()}, nil
}

// ApplyTimeZone makes PocketBase's cron (which runs the scheduled backups) count time in
// loc, the operation's time zone, so "03:00" is 03:00 at the bay.
func ApplyTimeZone(app core.App, loc *time.Location) {
	if loc != nil {
		app.Cron().SetTimezone(loc)
		app.Store().Set(cronZoneKey, loc)
	}
}

// cronZoneKey holds, in the app's store, the zone ApplyTimeZone last gave the cron.
const cronZoneKey = "backups.cronZone"

// CronZone is the zone ApplyTimeZone last gave app's cron (nil before the first).
func CronZone(app core.App) *time.Location {
	loc, _ := app.Store().Get(cronZoneKey).(*time.Location)
	return loc
}
