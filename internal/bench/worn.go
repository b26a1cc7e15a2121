package main

import (
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/ids"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
)

// The packs list filtered by "worn" (issue 46, DESIGN.md §16): GET /api/packs?worn=1 over a
// registry of wornPacks packs, wornShare of them worn (the partial index idx_packs_worn answers
// the filter), one admin reading it back to back (the latency an admin sees opening the
// filter) and 16 admins at once; beside it the unfiltered first page of the same list, and
// PocketBase's own GET /api/collections/packs/records?filter=(worn=true) as a superuser, the
// reference the other benches use. Target: GET /api/packs?worn=1 ≤ 200 ms (p99, one client).
const (
	wornPacks    = 10_000
	wornEvery    = 33 // one pack in wornEvery is worn (~3%: a fleet with a few tired packs)
	wornMaxTime  = 200 * time.Millisecond
	wornDuration = 4 * time.Second
)

// wornSection builds the registry on the small data set, measures and returns the report section.
func wornSection() string {
	ds := smallDataSet()
	n, err := seedWornRegistry(ds)
	check(err)
	srv := serve(ds)
	defer srv.stop()
	load := loadAverage()
	admin := "swapbay_session=" + srv.token(ds.admins[0])
	super := srv.token(ds.superuser)
	get := func(path, cookie, auth string) request {
		return func(w, i int) (*http.Request, error) {
			req, err := http.NewRequest(http.MethodGet, srv.base+path, nil)
			if err == nil && cookie != "" {
				req.Header.Set("Cookie", cookie)
			}
			if err == nil && auth != "" {
				req.Header.Set("Authorization", auth)
			}
			return req, err
		}
	}
	// the answer is what it says: every worn pack, and only those
	check(srv.expectTotal("/api/packs?worn=1&perPage=1", admin, n))
	native := "/api/collections/packs/records?perPage=100&sort=serial&filter=" + url.QueryEscape("worn=true")
	rows := []result{
		srv.run("GET /api/packs?worn=1 (1 admin)", 1, wornDuration, get("/api/packs?worn=1", admin, "")),
		srv.run("GET /api/packs?worn=1 (16 admins)", 16, wornDuration, get("/api/packs?worn=1", admin, "")),
		srv.run("GET /api/packs, first page (1 admin)", 1, wornDuration, get("/api/packs", admin, "")),
		srv.run("PocketBase GET /api/collections/packs/records?filter=(worn=true) (1 superuser)", 1, wornDuration, get(native, "", super)),
		srv.run("PocketBase GET /api/collections/packs/records?filter=(worn=true) (16 superusers)", 16, wornDuration, get(native, "", super)),
	}
	for _, r := range rows {
		log.Printf("worn: %s: %s%s", r.Name, r, firstError(r))
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n## The packs list filtered by worn (issue 46)\n\n")
	fmt.Fprintf(&sb, "%d packs, %d of them worn (one in %d; the partial index `idx_packs_worn`), the small data set's ledger; an admin's session, back to back for %s each; load average before: %s, after: %s.\n\n",
		wornPacks, n, wornEvery, wornDuration, load, loadAverage())
	sb.WriteString("| route | clients | req/s | p50 | p99 | errors |\n|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&sb, "| %s | %d | %.0f | %s | %s | %d |\n", r.Name, r.Clients, r.RPS, ms(r.P50), ms(r.P99), r.Errors)
	}
	one := rows[0]
	fmt.Fprintf(&sb, "\nGET /api/packs?worn=1, one admin: p99 %s (target ≤ %s: %s).\n", ms(one.P99), wornMaxTime, verdict(one.P99 <= wornMaxTime && one.Errors == 0))
	return sb.String()
}

// seedWornRegistry inserts wornPacks packs in ready (one in wornEvery worn, with its reason and
// state of health, as modules/health leaves them) and returns how many are worn.
func seedWornRegistry(ds *dataSet) (int, error) {
	app := ds.app
	ready, err := inventory.SystemAccount(app, inventory.KeyReady)
	if err != nil {
		return 0, err
	}
	now := types.NowDateTime().String()
	worn := 0
	err = app.RunInTransaction(func(tx core.App) error {
		for i := 1; i <= wornPacks; i++ {
			p := dbx.Params{
				"id": ids.New(), schema.PackSerial: fmt.Sprintf("WRN-%06d", i), schema.PackState: schema.PackStateInService,
				schema.PackModel: "Nova 48V 15Ah", schema.PackNominalWh: 720, schema.PackLot: fmt.Sprintf("L%d", i%20),
				schema.PackLocation: ready.Id, schema.PackChargeCount: i % 400, schema.PackLastSeenAt: now,
				schema.PackSoh: 80 + i%20, schema.PackSohSource: schema.PackSohSourceReading, schema.PackSohAt: now,
				schema.Created: now, schema.Updated: now,
			}
			if i%wornEvery == 0 {
				worn++
				p[schema.PackWorn], p[schema.PackSoh] = true, 60+i%20
				p[schema.PackWornReason] = fmt.Sprintf("State of health %d%% is under the model's 80%%", 60+i%20)
			}
			if _, err := tx.DB().Insert(schema.Packs, p).Execute(); err != nil {
				return err
			}
		}
		return nil
	})
	return worn, err
}

// expectTotal checks that path, read with cookie, answers a list whose total is want.
func (s *server) expectTotal(path, cookie string, want int) error {
	req, err := http.NewRequest(http.MethodGet, s.base+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Cookie", cookie)
	res, err := s.client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	var body struct {
		Total int `json:"total"`
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK || body.Total != want {
		return fmt.Errorf("GET %s: %d, total %d; want 200 and %d", path, res.StatusCode, body.Total, want)
	}
	return nil
}
