package main

import (
	"bytes"
	"compress/flate"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/clock"
	"swapbay/lib/idempotency"
	"swapbay/lib/ids"
	"swapbay/lib/schema"
)

// keysPerDay is a busy city's keyed writes a day (issue 32 #1).
const keysPerDay = 50_000

// keysResult is what 8 days of Idempotency-Keys cost (DESIGN.md §5: keys are kept 8 days).
type keysResult struct {
	Keys                 int
	MovementBytes        float64 // database bytes a keyed write's movement adds, without its answer
	KeyBytes             float64 // database bytes one stored answer adds (row and indexes)
	AnswerBytes          float64 // the stored answer's JSON, on average
	CompressedBytes      float64 // the same, deflated
	LookupP50, LookupP99 time.Duration
	Replay, Writes       result // keyed replays and new keyed writes against the full table
	WritesEmpty          result // new keyed writes against an empty table (same data set)
	Prune                time.Duration
	Pruned               int64
	DBBytes              int64
	Movements            int
	Ran, Load            string // when it ran, and the machine's load average then
}

// keysPart fills the idempotency table of a small data set with 8 days of keys at
// keysPerDay (answers copied from real keyed writes) and measures what they cost.
func keysPart() keysResult {
	ds := smallDataSet()
	srv := serve(ds)
	defer srv.stop()
	app := ds.app
	r := keysResult{Ran: time.Now().UTC().Format("2006-01-02 15:04 UTC"), Load: loadAverage()}

	// real answers: keyed pickups and dropoffs through the server, then what one adds
	before := dbBytes(app)
	movesBefore := count(app, schema.Movements)
	r.WritesEmpty = srv.loadWrites(16, *flagDuration)
	written := count(app, schema.Movements) - movesBefore
	withAnswers := dbBytes(app) - before
	var answers []string
	check(app.DB().NewQuery("SELECT body FROM " + schema.IdempotencyKeys + " LIMIT 2000").Column(&answers))
	var raw, packed int
	for _, a := range answers {
		raw += len(a)
		packed += deflated(a)
	}
	r.AnswerBytes, r.CompressedBytes = float64(raw)/float64(len(answers)), float64(packed)/float64(len(answers))

	// 8 days of keys: the app's UUIDv7 keys, spread over the drivers and the 8 days
	r.Keys = 8 * keysPerDay
	log.Printf("keys: inserting %d stored answers...", r.Keys)
	sizeBefore := dbBytes(app)
	now := time.Now()
	replayKeys := make([][2]string, 0, 1000) // user, key of answers younger than a day
	check(app.RunInTransaction(func(tx core.App) error {
		q := tx.DB().NewQuery("INSERT INTO " + schema.IdempotencyKeys + " (id, user, key, method, path, status, body, created)" +
			" VALUES ({:id}, {:user}, {:key}, 'POST', '/api/driver/pickup', 200, {:body}, {:created})").Prepare()
		defer q.Close()
		step := 8 * 24 * time.Hour / time.Duration(r.Keys)
		for i := 0; i < r.Keys; i++ {
			at := now.Add(-time.Duration(i) * step)
			user := ds.drivers[i%len(ds.drivers)].Id
			key := v7(at)
			created, _ := types.ParseDateTime(at)
			if _, err := q.Bind(dbx.Params{"id": ids.New(), "user": user, "key": key, "body": answers[i%len(answers)], "created": created.String()}).Execute(); err != nil {
				return err
			}
			if i%(keysPerDay/1000) == 0 && len(replayKeys) < cap(replayKeys) {
				replayKeys = append(replayKeys, [2]string{user, key})
			}
		}
		return nil
	}))
	r.KeyBytes = float64(dbBytes(app)-sizeBefore) / float64(r.Keys)
	if written > 0 {
		// a movement's own bytes: what the keyed writes added less their stored answers
		r.MovementBytes = (float64(withAnswers) - float64(written)*r.KeyBytes) / float64(written)
	}

	// the lookup a keyed request makes first (the (user, key) unique index)
	lookups := make([]time.Duration, 0, 20_000)
	for i := 0; i < cap(lookups); i++ {
		k := replayKeys[i%len(replayKeys)]
		if i%2 == 1 {
			k[1] = v7(now) // a new key: the miss every first send makes
		}
		var status int
		t0 := time.Now()
		_ = app.DB().NewQuery("SELECT status FROM " + schema.IdempotencyKeys + " WHERE user = {:user} AND key = {:key} LIMIT 1").
			Bind(dbx.Params{"user": k[0], "key": k[1]}).Row(&status)
		lookups = append(lookups, time.Since(t0))
	}
	sort.Slice(lookups, func(i, j int) bool { return lookups[i] < lookups[j] })
	r.LookupP50, r.LookupP99 = lookups[len(lookups)/2], lookups[len(lookups)*99/100]

	// keyed replays over HTTP, and new keyed writes into the full table
	cookies := map[string]string{}
	for _, d := range ds.drivers {
		cookies[d.Id] = "swapbay_session=" + srv.token(d)
	}
	body := []byte(`{"quantity":1,"notes":"Y"}`)
	for _, k := range replayKeys { // every replay answers the stored answer, never runs the route
		req, err := http.NewRequest(http.MethodPost, srv.base+"/api/driver/pickup", bytes.NewReader(body))
		check(err)
		req.Header.Set("Cookie", cookies[k[0]])
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(idempotency.Header, k[1])
		res, err := srv.client.Do(req)
		check(err)
		got, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || res.Header.Get(idempotency.ReplayedHeader) != "true" {
			log.Fatalf("keys: a stored key was not replayed: %d %s", res.StatusCode, got)
		}
	}
	r.Replay = srv.run("keyed replay, 8 days of keys", 16, *flagDuration, func(w, n int) (*http.Request, error) {
		k := replayKeys[(w*7919+n)%len(replayKeys)]
		req, err := http.NewRequest(http.MethodPost, srv.base+"/api/driver/pickup", bytes.NewReader(body))
		if err == nil {
			req.Header.Set("Cookie", cookies[k[0]])
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(idempotency.Header, k[1])
		}
		return req, err
	})
	srv.runId++
	r.Writes = srv.loadWrites(16, *flagDuration)

	// one prune as a keyed write makes it (every 10 minutes, at most idempotency.PruneBatch
	// answers), with a day's answers due (after a day's downtime)
	restore := clock.Set(func() time.Time { return now.Add(24 * time.Hour) })
	before = int64(count(app, schema.IdempotencyKeys))
	t0 := time.Now()
	check(idempotency.Prune(app))
	r.Prune = time.Since(t0)
	restore()
	r.Pruned = before - int64(count(app, schema.IdempotencyKeys))
	if r.Replay.Errors > 0 {
		log.Printf("keys: replay errors: %s", r.Replay.FirstError)
	}
	r.DBBytes, r.Movements = dbBytes(app), count(app, schema.Movements)
	return r
}

func (r keysResult) markdown() string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	w("\n## Idempotency keys: 8 days at %d keyed writes a day (`-only keys`)\n", keysPerDay)
	w("Keys are kept 8 days (DESIGN.md §5): %d stored answers (UUIDv7 keys spread over the 8 days and the drivers, answers copied from real keyed pickups and dropoffs), on the %d-movement data set. Ran %s, load average %s (1/5/15 min) at its start.\n", r.Keys, *flagSmall, r.Ran, r.Load)
	w("| measure | figure |")
	w("|---|---|")
	w("| database bytes per stored answer (row and both indexes) | %.0f B |", r.KeyBytes)
	w("| 8 days of answers | %.1f MB |", r.KeyBytes*float64(r.Keys)/1e6)
	w("| database bytes per keyed write's movement (entries, balances), without its answer | %.0f B |", r.MovementBytes)
	w("| stored answer JSON, average | %.0f B (deflated: %.0f B, %.0f%%) |", r.AnswerBytes, r.CompressedBytes, 100*r.CompressedBytes/r.AnswerBytes)
	w("| key lookup (the (user, key) index; half hits, half misses), one connection | p50 %s, p99 %s |", ms(r.LookupP50), ms(r.LookupP99))
	w("| keyed replay over HTTP, 16 clients | %s |", r.Replay)
	w("| new keyed writes, 16 clients, table empty | %s |", r.WritesEmpty)
	w("| new keyed writes, 16 clients, 8 days of keys | %s |", r.Writes)
	w("| one prune (inside a keyed write's transaction, every 10 minutes) with a day's answers due: %d deleted | %s |", r.Pruned, r.Prune.Round(time.Millisecond))
	w("| database at the end | %.1f MB for %d movements |", float64(r.DBBytes)/1e6, r.Movements)
	return b.String()
}

// v7 is a UUIDv7 minted at t, as the app mints its keys.
func v7(t time.Time) string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	ms := t.UnixMilli()
	for i := 5; i >= 0; i-- {
		b[i] = byte(ms)
		ms >>= 8
	}
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func deflated(s string) int {
	var buf bytes.Buffer
	zw, _ := flate.NewWriter(&buf, flate.BestSpeed)
	_, _ = zw.Write([]byte(s))
	_ = zw.Close()
	return buf.Len()
}

// dbBytes is the database's size in use (pages less free pages), WAL included: the file
// alone lags behind while the WAL holds the newest pages.
func dbBytes(app core.App) int64 {
	var n int64
	check(app.DB().NewQuery("SELECT (p.page_count - f.freelist_count) * s.page_size FROM pragma_page_count() p, pragma_freelist_count() f, pragma_page_size() s").Row(&n))
	return n
}

func count(app core.App, table string) int {
	var n int
	check(app.DB().NewQuery("SELECT COUNT(*) FROM " + table).Row(&n))
	return n
}
