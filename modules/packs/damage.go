package packs

import (
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/events"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
	"swapbay/lib/sqlitedb"
	"swapbay/modules/journal"
	"swapbay/modules/photos"
)

// A damage report (issue 37 item 2): a driver marks a pack damaged at dropoff or from the
// pack's page with a note and photos; the pack goes to quarantined at once (the bay sees it in
// the attention strip) and an admin decides with the state route (maintenance, in service,
// retired).

// Messages of a damage report.
const (
	MsgDamageNote       = "Please describe the damage"
	MsgDamagePhotos     = "At most 10 photos per report"
	MsgDamagePhotoTwice = "A photo is named twice"
	MsgDamagePhoto      = "Photo not found: send it again"
	MsgDamageReported   = "Damage reported: pack %s is quarantined"
	MsgDamageRecorded   = "Damage reported on pack %s (already %s)"
	// ReasonDamagePrefix opens the reason of the quarantine a damage report makes.
	ReasonDamagePrefix = "Damage reported: "
)

// Damage is a damage report as the route receives it.
type Damage struct {
	Serial     string
	Note       string
	Photos     []string
	OccurredAt time.Time // the tap (zero: now)
	Actor      string
	Driver     bool // a driver may report only a pack they hold or last moved
}

// ReportDamage records d in one transaction: a "damage" event (the note, the photos) and,
// unless the pack is already quarantined, retired or recycled (or in transit to another city:
// its state changes only by its transfer), its quarantine (a "state" event, reason "Damage
// reported: <note>"). It returns the pack and whether it was quarantined.
func ReportDamage(app core.App, d Damage, now time.Time) (*Pack, bool, error) {
	note, err := reqx.Notes("note", d.Note, MsgDamageNote) // at most reqx.MaxNotes (2,000) characters
	if err != nil {
		return nil, false, err
	}
	if len(d.Photos) > schema.MaxPackEventPhotos {
		return nil, false, apierr.Invalid("photos", MsgDamagePhotos)
	}
	seen := map[string]bool{}
	for _, id := range d.Photos {
		if seen[id] {
			return nil, false, apierr.Invalid("photos", MsgDamagePhotoTwice)
		}
		seen[id] = true
	}
	at := d.OccurredAt
	if at.IsZero() {
		at = now
	}
	var out *Pack
	quarantined := false
	err = app.RunInTransaction(func(txApp core.App) error {
		p, err := FindBySerial(txApp, d.Serial)
		if err != nil {
			return err
		}
		if d.Driver {
			ok, err := driverMayReport(txApp, p, d.Actor)
			if err != nil {
				return err
			}
			if !ok {
				return apierr.NotFound(MsgPackNotFound) // as the pack page: a pack not theirs is not shown
			}
		}
		if err := checkPhotos(txApp, d.Photos, d.Actor); err != nil {
			return err
		}
		c, err := journal.Damage(txApp, p.Id, note, d.Photos, truncate(ReasonDamagePrefix+note, reqx.MaxNotes), d.Actor, at)
		if err != nil {
			return err
		}
		if quarantined = c.To != ""; quarantined {
			if err := shelve(txApp, d.Actor, at, []journal.Change{c}); err != nil {
				return err
			}
			if p, err = FindBySerial(txApp, p.Serial()); err != nil {
				return err
			}
		}
		// the pack pages, the recall page and the attention strip refetch
		events.Publish(txApp, events.InventoryUpdated, events.ActivityUpdated)
		out = p
		return nil
	})
	return out, quarantined, err
}

// DamagedAway quarantines the packs among serials just back from their way (a send deleted: they
// never left; or received back from the other city) that a damage report reached while they
// were in transit (journal.DamagedAway: the
// report could not quarantine them then), each with its report's reason, taking its battery from
// ready or waiting to the quarantine shelf (shelve), as the report would have. Call it in the
// transaction that brought them back.
func DamagedAway(txApp core.App, serials []string, actor string, at time.Time) ([]journal.Change, error) {
	changes, err := journal.DamagedAway(txApp, serials, ReasonDamagePrefix, reqx.MaxNotes, actor, at)
	if err != nil || len(changes) == 0 {
		return changes, err
	}
	return changes, shelve(txApp, actor, at, changes)
}

// truncate cuts s to at most n characters.
func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// driverMayReport reports whether driver userId may report damage on p: a pack they hold, or
// one whose last movement was theirs (they dropped it off).
func driverMayReport(txApp core.App, p *Pack, userId string) (bool, error) {
	var kind, holder, mvUser string
	err := sqlitedb.Query(txApp.DB(), "SELECT COALESCE(a.kind, ''), COALESCE(a.user, ''), COALESCE(m.user, '') FROM "+schema.Packs+" p"+
		" LEFT JOIN "+schema.Accounts+" a ON a.id = p.location"+
		" LEFT JOIN "+schema.Movements+" m ON m.id = p.lastSeenMovement AND p.lastSeenMovement != ''"+
		" WHERE p.id = {:id}", dbx.Params{"id": p.Id}, func(scan func(...any) error) error { return scan(&kind, &holder, &mvUser) })
	if err != nil {
		return false, err
	}
	return (kind == schema.AccountKindHolder && holder == userId) || mvUser == userId || p.LastSeenBy() == userId, nil
}

// checkPhotos refuses a photo that is not a claimed upload of userId (the photo flow's
// result: upload, then claim).
func checkPhotos(txApp core.App, ids []string, userId string) error {
	for _, id := range ids {
		if _, err := photos.Find(txApp, id, userId, false); err != nil {
			return apierr.Invalid("photos", MsgDamagePhoto)
		}
	}
	return nil
}
