package main

import (
	"fmt"
	"time"

	"github.com/pocketbase/dbx"

	"swapbay/lib/schema"
	"swapbay/modules/packs"
)

// Demo pack safety (issue 37): so a new user sees every part of it.
const (
	// demoRecallLot is the lot of the demo recall: six packs, some in the bay, some with drivers.
	demoRecallLot    = "L2025-09B"
	demoRecallReason = "Supplier notice VC-2025-17: cells of this lot may overheat when charged below 0 °C"
	demoRecallSize   = 6
	// demoMissing packs were last taken by a driver more than a week ago and never scanned since.
	demoMissing    = 3
	demoDamageNote = "Swollen case, warm to the touch after the ride"
)

// packSafety leaves the demo with a recall (a lot of six packs, some back in the bay, some
// with drivers), a few missing packs with their last holder, and a damage report with a photo.
func (s *seeder) packSafety() error {
	if err := s.missingPacks(); err != nil {
		return fmt.Errorf("missing packs: %w", err)
	}
	if err := s.recall(); err != nil {
		return fmt.Errorf("recall: %w", err)
	}
	if err := s.damageReport(); err != nil {
		return fmt.Errorf("damage report: %w", err)
	}
	return nil
}

// missingPacks: demoMissing packs a driver took 8 to 13 days ago are seen nowhere since — as
// if the later movements had not named them (tracking is optional): their history ends with
// the driver, who is their last holder and their place.
func (s *seeder) missingPacks() error {
	from, to := s.stamp(s.now.AddDate(0, 0, -13)), s.stamp(s.now.AddDate(0, 0, -8))
	var rows []struct {
		Event string `db:"event"`
		Pack  string `db:"pack"`
	}
	// each pack's last move into a person's hands in the window; packs without a discrepancy,
	// so the history's discrepancies stay as they are
	err := s.app.DB().NewQuery(`SELECT e.id AS event, e.pack AS pack FROM {{pack_events}} e JOIN {{accounts}} a ON a.id = e.toAccount
		WHERE a.kind = 'holder' AND e.kind = 'moved' AND e.at BETWEEN {:from} AND {:to}
		AND e.pack NOT IN (SELECT pack FROM {{pack_events}} WHERE kind = 'discrepancy')
		AND e.at = (SELECT MAX(x.at) FROM {{pack_events}} x JOIN {{accounts}} xa ON xa.id = x.toAccount WHERE x.pack = e.pack AND xa.kind = 'holder' AND x.at BETWEEN {:from} AND {:to})
		GROUP BY e.pack ORDER BY e.pack LIMIT {:n}`).Bind(dbx.Params{"from": from, "to": to, "n": demoMissing}).All(&rows)
	if err != nil {
		return err
	}
	for _, r := range rows {
		var e struct {
			At       string `db:"at"`
			Actor    string `db:"actor"`
			Movement string `db:"movement"`
			To       string `db:"toAccount"`
			Rowid    int64  `db:"rid"`
		}
		if err := s.app.DB().NewQuery("SELECT at, actor, movement, toAccount, rowid AS rid FROM {{pack_events}} WHERE id = {:id}").Bind(dbx.Params{"id": r.Event}).One(&e); err != nil {
			return err
		}
		if _, err := s.app.DB().NewQuery("DELETE FROM {{pack_events}} WHERE pack = {:p} AND rowid > {:rid}").Bind(dbx.Params{"p": r.Pack, "rid": e.Rowid}).Execute(); err != nil {
			return err
		}
		if _, err := s.app.DB().Update(schema.Packs, dbx.Params{schema.PackLocation: e.To, schema.PackLastSeenAt: e.At, schema.PackLastSeenBy: e.Actor,
			schema.PackLastSeenMovement: e.Movement}, dbx.HashExp{"id": r.Pack}).Execute(); err != nil {
			return err
		}
	}
	return nil
}

// recall relabels demoRecallSize packs as lot demoRecallLot — half in the bay, half with
// drivers — and recalls the lot a few minutes ago.
func (s *seeder) recall() error {
	var ids []string
	pick := func(where string, n int) error {
		var got []string
		err := s.app.DB().NewQuery("SELECT p.id FROM {{packs}} p JOIN {{accounts}} a ON a.id = p.location WHERE " + where +
			" AND p.state = 'in_service' AND p.lot != {:lot} AND p.lastSeenAt >= {:recent} ORDER BY p.serial LIMIT {:n}").
			Bind(dbx.Params{"lot": demoRecallLot, "n": n, "recent": s.stamp(s.now.AddDate(0, 0, -3))}).Column(&got)
		ids = append(ids, got...)
		return err
	}
	if err := pick("a.kind = 'holder'", demoRecallSize/2); err != nil {
		return err
	}
	if err := pick("a.kind IN ('ready', 'waiting', 'session')", demoRecallSize-len(ids)); err != nil {
		return err
	}
	vals := make([]any, len(ids))
	for i, id := range ids {
		vals[i] = id
	}
	if _, err := s.app.DB().Update(schema.Packs, dbx.Params{schema.PackLot: demoRecallLot}, dbx.In("id", vals...)).Execute(); err != nil {
		return err
	}
	_, err := packs.Recall(s.app, packs.RecallForm{By: schema.PackRecallByLot, Value: demoRecallLot, Reason: demoRecallReason}, s.master.Id, s.now.Add(-10*time.Minute))
	return err
}

// damageReport: a driver who dropped a pack off reports it swollen, with one of their photos.
func (s *seeder) damageReport() error {
	var row struct {
		Serial string `db:"serial"`
		Driver string `db:"driver"`
		Photo  string `db:"photo"`
	}
	err := s.app.DB().NewQuery(`SELECT p.serial AS serial, p.lastSeenBy AS driver, COALESCE((SELECT ph.id FROM {{photos}} ph WHERE ph.uploadedBy = p.lastSeenBy AND ph.claimed = TRUE ORDER BY ph.id LIMIT 1), '') AS photo
		FROM {{packs}} p JOIN {{accounts}} a ON a.id = p.location JOIN {{users}} u ON u.id = p.lastSeenBy
		WHERE a.kind = 'ready' AND p.state = 'in_service' AND u.role = 'driver' AND p.lot != {:lot}
		ORDER BY (SELECT COUNT(*) FROM {{photos}} ph WHERE ph.uploadedBy = p.lastSeenBy AND ph.claimed = TRUE) DESC, p.lastSeenAt DESC LIMIT 1`).
		Bind(dbx.Params{"lot": demoRecallLot}).One(&row)
	if err != nil {
		return err
	}
	d := packs.Damage{Serial: row.Serial, Note: demoDamageNote, Actor: row.Driver, Driver: true, OccurredAt: s.now.Add(-20 * time.Minute)}
	if row.Photo != "" {
		d.Photos = []string{row.Photo}
	}
	_, _, err = packs.ReportDamage(s.app, d, s.now.Add(-20*time.Minute))
	return err
}

// stamp is t as PocketBase stores dates (UTC, milliseconds).
func (s *seeder) stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05.000Z") }
