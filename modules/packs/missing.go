package packs

import (
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/clock"
	"swapbay/lib/events"
	"swapbay/lib/schema"
	"swapbay/lib/sqlitedb"
	"swapbay/modules/journal"
	"swapbay/modules/system"
)

// Missing packs (issue 37 item 4, DESIGN.md §14): a pack in service or in maintenance that no
// movement has named for pack_missing_days days is missing. Days are the operation's days: the
// cutoff is the start of the local day pack_missing_days days before today (the time zone
// setting), so the list changes once a day, at local midnight, when the pack-missing job
// (modules/jobs) runs and announces it. Nothing is stored: the list and the attention strip
// compare each pack's last sighting with that cutoff, so a pack seen again leaves the list
// with the movement that names it.

// missingStates are the states in which an unseen pack is missing (a quarantined, retired,
// recycled or lost pack is accounted for otherwise).
const missingStates = "('" + schema.PackStateInService + "', '" + schema.PackStateMaintenance + "')"

// missingSQL is the condition on packs p of a pack missing at {:cutoff}.
const missingSQL = "p.[[state]] IN " + missingStates + " AND COALESCE(NULLIF(p.[[lastSeenAt]], ''), p.[[created]]) < {:cutoff}"

// MissingCutoff is the time before which a pack last seen is missing at now: the start of the
// local day (in loc) days days before now's local day.
func MissingCutoff(now time.Time, loc *time.Location, days int) time.Time {
	return clock.DayStart(now, loc).AddDate(0, 0, -days)
}

// missingCutoffAt reads the setting and the time zone and returns the cutoff at now as stored
// dates compare, with the days.
func missingCutoffAt(app core.App, now time.Time) (string, int, error) {
	days, err := MissingDays.Read(app)
	if err != nil {
		return "", 0, err
	}
	loc, err := system.Location(app)
	if err != nil {
		return "", 0, err
	}
	d, _ := types.ParseDateTime(MissingCutoff(now, loc, days).UTC())
	return d.String(), days, nil
}

// isMissing reports whether a pack in state, last seen at seen (its creation when never seen),
// is missing at cutoff.
func isMissing(state, seen, cutoff string) bool {
	return cutoff != "" && seen < cutoff && (state == schema.PackStateInService || state == schema.PackStateMaintenance)
}

// CountMissing counts the packs missing at now.
func CountMissing(app core.App, now time.Time) (int, error) {
	cutoff, _, err := missingCutoffAt(app, now)
	if err != nil {
		return 0, err
	}
	var n int
	err = app.DB().NewQuery("SELECT COUNT(*) FROM {{packs}} p WHERE " + missingSQL).Bind(dbx.Params{"cutoff": cutoff}).Row(&n)
	return n, err
}

// RunMissing is the pack-missing job: at local midnight the cutoff moves a day, so it counts
// the packs missing now and announces the change (the packs list and the attention strip
// refetch). It returns the count.
func RunMissing(app core.App, now time.Time) (int, error) {
	n, err := CountMissing(app, now)
	if err != nil {
		return 0, err
	}
	events.Publish(app, events.InventoryUpdated)
	return n, nil
}

// lastHolders reads, for each pack id, the last person a pack event put it with (its holder
// now when a person holds it): one query for all of them.
func lastHolders(app core.App, packIds []string) (map[string]*Person, error) {
	out := map[string]*Person{}
	if len(packIds) == 0 {
		return out, nil
	}
	params := dbx.Params{}
	in := sqlitedb.In(params, "p", packIds)
	q := "SELECT h.pack, h.user, COALESCE(TRIM(u.firstName || ' ' || u.lastName), '') FROM (" +
		"SELECT p.id AS pack, (SELECT ta.user FROM " + schema.PackEvents + " e JOIN " + schema.Accounts + " ta ON ta.id = e.toAccount" +
		" WHERE e.pack = p.id AND ta.kind = '" + schema.AccountKindHolder + "' ORDER BY e.at DESC, e.rowid DESC LIMIT 1) AS user" +
		" FROM " + schema.Packs + " p WHERE p.id IN (" + in + ")) h" +
		" LEFT JOIN " + schema.Users + " u ON u.id = h.user WHERE h.user IS NOT NULL AND h.user != ''"
	err := sqlitedb.Query(app.DB(), q, params, func(scan func(...any) error) error {
		var pack, user, name string
		if err := scan(&pack, &user, &name); err != nil {
			return err
		}
		out[pack] = &Person{Id: user, Name: nameOr(name)}
		return nil
	})
	return out, err
}

// DiscrepancyWindow is how far back the attention strip counts discrepancies.
const DiscrepancyWindow = 7 * 24 * time.Hour

// UnnamedTapAge bounds how much older than its recording a movement's tap (occurredAt) can be:
// an action's occurredAt is refused after 7 days (too_old) and its Idempotency-Key after 8.
const UnnamedTapAge = 8 * 24 * time.Hour

// Attention is what the packs put on the admin Home's attention strip.
type Attention struct {
	// QuarantinedPacks waits for an admin's decision (maintenance, in service, retired).
	QuarantinedPacks int `json:"quarantinedPacks"`
	// MissingPacks have not been seen for pack_missing_days local days.
	MissingPacks int `json:"missingPacks"`
	// PackDiscrepancies were recorded in the last 7 days (a pack scanned where the records
	// did not have it).
	PackDiscrepancies int `json:"packDiscrepancies"`
	// DamageReports are the packs with an open damage report: still quarantined, and not
	// taken out of quarantine since the report.
	DamageReports int `json:"damageReports"`
	// UnnamedBatteries moved without packs in required mode, recorded in the last 7 days: offline
	// actions keyed before the mode was switched on (journal.MetaUnnamed), to be found by a
	// stocktake.
	UnnamedBatteries int `json:"unnamedBatteries"`
	// UnnamedInBay is, in required mode, how many of the bay's batteries no pack names yet
	// (journal.UnnamedInBay): switched to required, the bay is counted to name them (the
	// System page's hint, with the stocktake's link). 0 in the other modes.
	UnnamedInBay int `json:"unnamedInBay"`
}

// CountAttention counts the packs' part of the attention strip at now (one query, on indexes).
func CountAttention(app core.App, now time.Time) (Attention, error) {
	cutoff, _, err := missingCutoffAt(app, now)
	if err != nil {
		return Attention{}, err
	}
	since, _ := types.ParseDateTime(now.Add(-DiscrepancyWindow).UTC())
	var a Attention
	q := "SELECT" +
		" (SELECT COUNT(*) FROM {{packs}} WHERE [[state]] = 'quarantined')," +
		" (SELECT COUNT(*) FROM {{packs}} p WHERE " + missingSQL + ")," +
		" (SELECT COUNT(*) FROM {{pack_events}} WHERE [[kind]] = 'discrepancy' AND [[at]] >= {:since})," +
		" (SELECT COUNT(DISTINCT e.[[pack]]) FROM {{pack_events}} e JOIN {{packs}} p ON p.[[id]] = e.[[pack]]" +
		"   WHERE e.[[kind]] = 'damage' AND p.[[state]] = 'quarantined' AND NOT EXISTS (SELECT 1 FROM {{pack_events}} s" +
		"   WHERE s.[[pack]] = e.[[pack]] AND s.[[kind]] IN ('state', 'found') AND s.[[fromState]] = 'quarantined' AND s.rowid > e.rowid))," +
		" (SELECT COALESCE(SUM(json_extract([[meta]], '$." + journal.MetaUnnamed + "')), 0) FROM {{movements}}" +
		"   WHERE [[occurredAt]] >= {:tapped} AND [[recordedAt]] >= {:since} AND json_extract([[meta]], '$." + journal.MetaUnnamed + "') > 0)"
	// unnamed batteries count from when the server recorded them (a late offline action's tap
	// may be days older); its tap is at most UnnamedTapAge older, which keeps the read on the
	// occurredAt index
	tapped, _ := types.ParseDateTime(now.Add(-DiscrepancyWindow - UnnamedTapAge).UTC())
	err = app.DB().NewQuery(q).Bind(dbx.Params{"cutoff": cutoff, "since": since.String(), "tapped": tapped.String()}).
		Row(&a.QuarantinedPacks, &a.MissingPacks, &a.PackDiscrepancies, &a.DamageReports, &a.UnnamedBatteries)
	if err != nil {
		return a, err
	}
	a.UnnamedInBay, err = journal.UnnamedInBay(app)
	return a, err
}
