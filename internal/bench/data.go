package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/lib/sqlitedb"
	"swapbay/modules/charging"
	"swapbay/modules/inventory"
	"swapbay/pb_app/setup"
)

// Shape of the generated history: a busy bay records about 1,500 movements a day, so a
// bigger history is a longer one (as in production), not a denser week.
const (
	movementsPerDay = 1500
	batchSize       = 5000
	readyReserve    = 45 // the write load needs ready batteries for 32 concurrent pickups
	benchPassword   = "bench-password"
)

// dataSet is a migrated data dir with users and a ledger history, ready to serve.
type dataSet struct {
	dir        string
	app        *core.BaseApp
	drivers    []*core.Record
	admins     []*core.Record
	liaisons   []*core.Record
	superuser  *core.Record
	nativeItem string // a record of the small bench_items collection
	summary    summary
}

// summary describes a data set in the report.
type summary struct {
	Movements int
	Entries   int
	Users     int
	Holders   int
	Path      string
	BuildTime time.Duration
	Span      time.Duration
	Note      string
}

func (s summary) String() string {
	return fmt.Sprintf("%d movements, %d entries, %d users, %d holders, history %.0f days (%s)",
		s.Movements, s.Entries, s.Users, s.Holders, s.Span.Hours()/24, s.Path)
}

// buildDataSet makes a temp data dir with nUsers users and about n movements. fast writes
// the movements with direct multi-row SQL inserts (same accounts, entries and cached
// balances the ledger would write, checked afterwards); otherwise every movement goes
// through the ledger's operation functions, batchSize per transaction. budget (fast only)
// stops the build early; the summary says so.
func buildDataSet(n, nUsers, nHolders int, fast bool, budget time.Duration) (*dataSet, error) {
	started := time.Now()
	dir, err := os.MkdirTemp("", "swapbay_bench_*")
	if err != nil {
		return nil, err
	}
	app := core.NewBaseApp(sqlitedb.AppConfig(dir))
	setup.Register(app)
	if err := app.Bootstrap(); err != nil {
		return nil, err
	}
	if err := app.RunAllMigrations(); err != nil {
		return nil, err
	}
	ds := &dataSet{dir: dir, app: app}
	if err := ds.createUsers(nUsers); err != nil {
		return nil, err
	}
	if err := ds.createNativeReference(); err != nil {
		return nil, err
	}

	g := newGenerator(ds, n, nHolders)
	var s sink
	if fast {
		ss, err := newSQLSink(app)
		if err != nil {
			return nil, err
		}
		s = ss
		ds.summary.Path = "direct SQL inserts"
	} else {
		s = &ledgerSink{users: ds.byId()}
		ds.summary.Path = "ledger operation functions"
	}
	for !g.done() {
		if fast && budget > 0 && time.Since(started) > budget {
			ds.summary.Note = fmt.Sprintf("time box of %s reached after %d of %d movements", budget, g.i, n)
			g.n = g.i
			break
		}
		err := app.RunInTransaction(func(tx core.App) error {
			s.begin(tx)
			for k := 0; k < batchSize && !g.done(); k++ {
				if err := g.step(s); err != nil {
					return err
				}
			}
			return s.flush()
		})
		if err != nil {
			return nil, fmt.Errorf("build at movement %d: %w", g.i, err)
		}
	}
	err = app.RunInTransaction(func(tx core.App) error {
		s.begin(tx)
		if err := g.settleHolders(s); err != nil {
			return err
		}
		return s.flush()
	})
	if err != nil {
		return nil, fmt.Errorf("settle holders: %w", err)
	}
	// the statistics production has: PocketBase's daily job runs PRAGMA optimize (sqlite_stat1
	// only). A full ANALYZE would also write sqlite_stat4 samples, with which SQLite re-plans
	// every statement whose bound values could change its plan, on every run: no prepared
	// statement would be reused (lib/sqlitedb).
	if _, err := app.DB().NewQuery("PRAGMA optimize").Execute(); err != nil {
		return nil, err
	}

	// Serve it as production would after an import: WAL folded into the database, a fresh
	// process state (new connections, no pages of the build cached in them).
	if _, err := app.DB().NewQuery("PRAGMA wal_checkpoint(TRUNCATE)").Execute(); err != nil {
		return nil, err
	}
	if err := app.ResetBootstrapState(); err != nil {
		return nil, err
	}
	app = core.NewBaseApp(sqlitedb.AppConfig(dir))
	setup.Register(app)
	if err := app.Bootstrap(); err != nil {
		return nil, err
	}
	ds.app = app

	ds.summary.BuildTime = time.Since(started)
	ds.summary.Users = nUsers
	ds.summary.Span = time.Duration(g.n) * g.step_
	_ = app.DB().NewQuery("SELECT COUNT(*) FROM movements").Row(&ds.summary.Movements)
	_ = app.DB().NewQuery("SELECT COUNT(*) FROM entries").Row(&ds.summary.Entries)
	_ = app.DB().NewQuery("SELECT COUNT(*) FROM accounts WHERE kind = 'holder' AND balance > 0").Row(&ds.summary.Holders)
	return ds, nil
}

// createUsers makes nUsers approved users: 8 admins, 4 master admins, 4 liaisons, the rest
// drivers. One bcrypt hash is computed and shared, which keeps the build fast.
func (ds *dataSet) createUsers(nUsers int) error {
	col, err := ds.app.FindCollectionByNameOrId(schema.Users)
	if err != nil {
		return err
	}
	hash := ""
	return ds.app.RunInTransaction(func(tx core.App) error {
		for i := 0; i < nUsers; i++ {
			role := roles.Driver
			switch {
			case i < 8:
				role = roles.Admin
			case i < 12:
				role = roles.MasterAdmin
			case i < 16:
				role = roles.Liaison
			}
			rec := core.NewRecord(col)
			rec.SetEmail(fmt.Sprintf("user%03d@bench.local", i))
			rec.Set(schema.UserFirstName, fmt.Sprintf("First%03d", i))
			rec.Set(schema.UserLastName, fmt.Sprintf("Last%03d", i))
			rec.Set(schema.UserRole, role)
			rec.Set(schema.UserIsApproved, roles.Approved)
			rec.Set(schema.UserPayReductionPercentage, schema.DefaultPayReductionPercentage)
			rec.Set(core.FieldNameTokenKey, fmt.Sprintf("benchtokenkey%05d-0123456789abcdefghij", i))
			if hash == "" {
				rec.SetPassword(benchPassword)
				if err := tx.Save(rec); err != nil {
					return err
				}
				hash = rec.GetString(core.FieldNamePassword + ":hash")
			} else {
				rec.SetRaw(core.FieldNamePassword, &core.PasswordFieldValue{Hash: hash})
				if err := tx.SaveNoValidate(rec); err != nil {
					return err
				}
			}
			switch {
			case roles.IsAdmin(role):
				ds.admins = append(ds.admins, rec)
			case role == roles.Liaison:
				ds.liaisons = append(ds.liaisons, rec)
			default:
				ds.drivers = append(ds.drivers, rec)
			}
		}
		return nil
	})
}

// createNativeReference adds a superuser and a small collection with one record, for
// PocketBase's own record API as the reference.
func (ds *dataSet) createNativeReference() error {
	supers, err := ds.app.FindCollectionByNameOrId(core.CollectionNameSuperusers)
	if err != nil {
		return err
	}
	su := core.NewRecord(supers)
	su.SetEmail("bench@bench.local")
	su.SetPassword(benchPassword)
	if err := ds.app.Save(su); err != nil {
		return err
	}
	ds.superuser = su

	items := core.NewBaseCollection("bench_items")
	items.Fields.Add(&core.TextField{Name: "name", Max: 200}, &core.NumberField{Name: "qty"})
	if err := ds.app.Save(items); err != nil {
		return err
	}
	rec := core.NewRecord(items)
	rec.Set("name", "reference item")
	rec.Set("qty", 1)
	if err := ds.app.Save(rec); err != nil {
		return err
	}
	ds.nativeItem = rec.Id
	return nil
}

func (ds *dataSet) byId() map[string]*core.Record {
	m := map[string]*core.Record{}
	for _, list := range [][]*core.Record{ds.drivers, ds.admins, ds.liaisons} {
		for _, r := range list {
			m[r.Id] = r
		}
	}
	return m
}

// consistent checks the ledger invariant: every cached balance equals the sum of its
// entries and no balance but outside's is negative.
func (ds *dataSet) consistent() (bool, string) {
	var bad, negative int
	// one indexed sum per account, whatever statistics the planner holds (a grouped join
	// of 1.4M entries may otherwise be planned as a scan per account)
	err := ds.app.DB().NewQuery("SELECT COUNT(*) FROM accounts a WHERE a.balance !=" +
		" (SELECT COALESCE(SUM(e.delta), 0) FROM entries e INDEXED BY " + schema.IdxEntriesAccount + " WHERE e.account = a.id)").Row(&bad)
	if err != nil {
		return false, err.Error()
	}
	_ = ds.app.DB().NewQuery("SELECT COUNT(*) FROM accounts WHERE balance < 0 AND kind != 'outside'").Row(&negative)
	if bad > 0 || negative > 0 {
		return false, fmt.Sprintf("%d balances differ from their entries, %d negative", bad, negative)
	}
	return true, "every balance equals the sum of its entries"
}

// ---------------------------------------------------------------------------------------
// History generator

// sink writes the generator's operations.
type sink interface {
	begin(tx core.App)
	pickup(user string, q int, at time.Time) error
	dropoff(user string, good, dead int, at time.Time) error
	activity(user, typ string, q int, at time.Time) error
	chargeStart(admin string, q int, at time.Time) (string, error)
	chargeComplete(admin, session string, at time.Time) error
	flush() error
}

type session struct {
	id string
	q  int
}

// generator plays a bay's day: pickups, dropoffs (good and dead), moves and recovers,
// charging started and completed, keeping every balance valid so no operation is refused.
type generator struct {
	ds       *dataSet
	rnd      *rand.Rand
	n, i     int
	start    time.Time
	step_    time.Duration
	ready    int
	waiting  int
	held     map[string]int
	holders  []string
	sessions []session
	nHolders int
}

func newGenerator(ds *dataSet, n, nHolders int) *generator {
	step := 24 * time.Hour / movementsPerDay
	return &generator{ds: ds, rnd: rand.New(rand.NewPCG(1, 2)), n: n, step_: step,
		start: time.Now().Add(-time.Duration(n+200) * step), ready: inventory.DefaultTotalBatteries,
		held: map[string]int{}, nHolders: nHolders}
}

func (g *generator) done() bool { return g.i >= g.n }

func (g *generator) at() time.Time { return g.start.Add(time.Duration(g.i) * g.step_) }

func (g *generator) driver() string { return g.ds.drivers[g.rnd.IntN(len(g.ds.drivers))].Id }

func (g *generator) admin() string { return g.ds.admins[g.rnd.IntN(len(g.ds.admins))].Id }

func (g *generator) hold(user string, delta int) {
	before := g.held[user]
	g.held[user] = before + delta
	switch {
	case before == 0 && g.held[user] > 0:
		g.holders = append(g.holders, user)
	case before > 0 && g.held[user] == 0:
		for k, h := range g.holders {
			if h == user {
				g.holders = append(g.holders[:k], g.holders[k+1:]...)
				break
			}
		}
	}
}

// step writes one movement.
func (g *generator) step(s sink) error {
	at := g.at()
	g.i++
	for {
		switch r := g.rnd.IntN(100); {
		case r < 30: // pickup
			q := 1 + g.rnd.IntN(2)
			u := g.driver()
			if g.ready-q < readyReserve || g.held[u] > 3 {
				continue
			}
			g.ready -= q
			g.hold(u, q)
			return s.pickup(u, q, at)
		case r < 60: // dropoff of everything the holder has
			if len(g.holders) == 0 {
				continue
			}
			u := g.holders[g.rnd.IntN(len(g.holders))]
			q := g.held[u]
			dead := g.rnd.IntN(q + 1)
			g.ready += q - dead
			g.waiting += dead
			g.hold(u, -q)
			return s.dropoff(u, q-dead, dead, at)
		case r < 90: // moves or recovers
			typ := inventory.TypeRebalance
			if r >= 80 {
				typ = inventory.TypeRetrievesRepairs
			}
			return s.activity(g.driver(), typ, 1+g.rnd.IntN(5), at)
		case r < 95: // start charging what is waiting
			if g.waiting < 3 {
				continue
			}
			q := g.waiting
			id, err := s.chargeStart(g.admin(), q, at)
			if err != nil {
				return err
			}
			g.waiting -= q
			g.sessions = append(g.sessions, session{id, q})
			return nil
		default: // complete the oldest session
			if len(g.sessions) == 0 {
				continue
			}
			sess := g.sessions[0]
			g.sessions = g.sessions[1:]
			g.ready += sess.q
			return s.chargeComplete(g.admin(), sess.id, at)
		}
	}
}

// settleHolders leaves exactly nHolders drivers holding batteries.
func (g *generator) settleHolders(s sink) error {
	at := time.Now().Add(-time.Minute)
	for len(g.holders) > g.nHolders {
		u := g.holders[0]
		q := g.held[u]
		g.ready += q
		g.hold(u, -q)
		if err := s.dropoff(u, q, 0, at); err != nil {
			return err
		}
	}
	for _, d := range g.ds.drivers {
		if len(g.holders) >= g.nHolders || g.ready-1 < readyReserve {
			break
		}
		if g.held[d.Id] == 0 {
			g.ready--
			g.hold(d.Id, 1)
			if err := s.pickup(d.Id, 1, at); err != nil {
				return err
			}
		}
	}
	return nil
}

// ---------------------------------------------------------------------------------------
// Ledger sink: the real operation functions inside the batch transaction.

type ledgerSink struct {
	tx    core.App
	users map[string]*core.Record
}

func (l *ledgerSink) begin(tx core.App) { l.tx = tx }
func (l *ledgerSink) flush() error      { return nil }

func (l *ledgerSink) op(user string, at time.Time, notes string) inventory.Op {
	return inventory.Op{Actor: l.users[user], At: at, Notes: notes}
}

func (l *ledgerSink) pickup(user string, q int, at time.Time) error {
	_, err := inventory.Pickup(l.tx, l.op(user, at, "Y"), user, q)
	return err
}

func (l *ledgerSink) dropoff(user string, good, dead int, at time.Time) error {
	_, err := inventory.Dropoff(l.tx, l.op(user, at, "Quiet shift, no issues."), user, good, dead)
	return err
}

func (l *ledgerSink) activity(user, typ string, q int, at time.Time) error {
	_, err := inventory.LogActivity(l.tx, l.op(user, at, "activity logged"), user, typ, q)
	return err
}

func (l *ledgerSink) chargeStart(admin string, q int, at time.Time) (string, error) {
	sess, _, err := charging.Start(l.tx, l.op(admin, at, ""), "4A", q)
	if err != nil {
		return "", err
	}
	return sess.Id, nil
}

func (l *ledgerSink) chargeComplete(admin, session string, at time.Time) error {
	_, _, err := charging.Complete(l.tx, l.op(admin, at, ""), session)
	return err
}

// ---------------------------------------------------------------------------------------
// SQL sink: the same rows the ledger writes (movement, entries per account, cached
// balances, session records and accounts), inserted many rows per statement.

type sqlSink struct {
	tx        core.App
	seq       int
	accounts  map[string]string // key → id
	balances  map[string]int    // id → balance
	dirty     map[string]bool
	newAccs   []string
	movements []string
	entries   []string
	sessions  []string
	ended     []string
	now       string
}

func newSQLSink(app core.App) (*sqlSink, error) {
	s := &sqlSink{accounts: map[string]string{}, balances: map[string]int{}, dirty: map[string]bool{},
		now: sqlTime(time.Now())}
	var rows []struct {
		Id      string `db:"id"`
		Key     string `db:"key"`
		Balance int    `db:"balance"`
	}
	if err := app.DB().NewQuery("SELECT id, key, balance FROM accounts").All(&rows); err != nil {
		return nil, err
	}
	for _, r := range rows {
		s.accounts[r.Key] = r.Id
		s.balances[r.Id] = r.Balance
	}
	return s, nil
}

func sqlTime(t time.Time) string { return t.UTC().Format(types.DefaultDateLayout) }

func (s *sqlSink) begin(tx core.App) { s.tx = tx }

func (s *sqlSink) id(prefix string) string {
	s.seq++
	return fmt.Sprintf("%s%014d", prefix, s.seq)
}

func (s *sqlSink) account(key, kind, user, assignmentType, sessionId string) string {
	if id, ok := s.accounts[key]; ok {
		return id
	}
	id := s.id("a")
	s.accounts[key] = id
	s.newAccs = append(s.newAccs, fmt.Sprintf("('%s','%s','%s','%s','%s','%s',0,'%s','%s')",
		id, key, kind, user, assignmentType, sessionId, s.now, s.now))
	return id
}

func (s *sqlSink) holder(user string) string {
	return s.account(inventory.HolderKey(user, inventory.AssignmentPickup), schema.AccountKindHolder, user, inventory.AssignmentPickup, "")
}

// post queues one movement and its netted entries and applies the deltas.
func (s *sqlSink) post(typ string, qty int, notes, user string, good, dead int, sessionId string, at time.Time, legs ...[3]any) {
	mid := s.id("m")
	s.movements = append(s.movements, fmt.Sprintf("('%s','%s',%d,'%s','%s','%s',%d,%d,0,'%s','{}',0,'%s','%s','%s')",
		mid, typ, qty, notes, user, user, good, dead, sessionId, sqlTime(at), s.now, s.now))
	deltas := map[string]int{}
	var order []string
	for _, l := range legs {
		from, to, q := l[0].(string), l[1].(string), l[2].(int)
		if q == 0 {
			continue
		}
		for _, a := range []string{from, to} {
			if _, ok := deltas[a]; !ok {
				order = append(order, a)
			}
		}
		deltas[from] -= q
		deltas[to] += q
	}
	for _, a := range order {
		if d := deltas[a]; d != 0 {
			s.entries = append(s.entries, fmt.Sprintf("('%s','%s','%s',%d)", s.id("e"), mid, a, d))
			s.balances[a] += d
			s.dirty[a] = true
		}
	}
}

func (s *sqlSink) pickup(user string, q int, at time.Time) error {
	s.post(inventory.TypePickup, -q, "Y", user, 0, 0, "", at, [3]any{s.accounts[inventory.KeyReady], s.holder(user), q})
	return nil
}

func (s *sqlSink) dropoff(user string, good, dead int, at time.Time) error {
	ready, waiting := s.accounts[inventory.KeyReady], s.accounts[inventory.KeyWaiting]
	s.post(inventory.TypeDropoff, good+dead, inventory.DropoffNotes(good, dead, "Quiet shift, no issues."), user, good, dead, "", at,
		[3]any{s.holder(user), ready, good + dead}, [3]any{ready, waiting, dead})
	return nil
}

func (s *sqlSink) activity(user, typ string, q int, at time.Time) error {
	s.post(typ, q, "activity logged", user, 0, 0, "", at)
	return nil
}

func (s *sqlSink) chargeStart(admin string, q int, at time.Time) (string, error) {
	sid := s.id("s")
	s.sessions = append(s.sessions, fmt.Sprintf("('%s',%d,'4A','%s','%s','%s','',1,'%s','%s','%s')",
		sid, q, sqlTime(at), sqlTime(at.Add(180*time.Minute)), schema.SessionStatusActive, admin, s.now, s.now))
	acc := s.account(inventory.SessionKey(sid), schema.AccountKindSession, "", "", sid)
	s.post(inventory.TypeChargeStart, q, fmt.Sprintf("Started charging %d batteries on 4A charger", q), admin, 0, 0, sid, at,
		[3]any{s.accounts[inventory.KeyWaiting], acc, q})
	return sid, nil
}

func (s *sqlSink) chargeComplete(admin, sid string, at time.Time) error {
	acc := s.accounts[inventory.SessionKey(sid)]
	q := s.balances[acc]
	s.post(inventory.TypeChargeComplete, q, fmt.Sprintf("Completed charging session: %d batteries on 4A charger now ready", q), admin, 0, 0, sid, at,
		[3]any{acc, s.accounts[inventory.KeyReady], q})
	s.ended = append(s.ended, fmt.Sprintf("('%s','%s')", sid, sqlTime(at)))
	return nil
}

// flush writes the queued rows, 500 per statement, then the changed balances.
func (s *sqlSink) flush() error {
	db := s.tx.DB()
	insert := func(head string, rows []string) error {
		for len(rows) > 0 {
			k := min(500, len(rows))
			if _, err := db.NewQuery(head + strings.Join(rows[:k], ",")).Execute(); err != nil {
				return err
			}
			rows = rows[k:]
		}
		return nil
	}
	steps := []struct {
		head string
		rows *[]string
	}{
		{"INSERT INTO charging_sessions (id, quantity, chargerType, startedAt, etaAt, status, endedAt, dueAnnounced, startedBy, created, updated) VALUES ", &s.sessions},
		{"INSERT INTO accounts (id, key, kind, user, assignmentType, session, balance, created, updated) VALUES ", &s.newAccs},
		{"INSERT INTO movements (id, type, quantity, notes, user, actor, goodBatteries, deadBatteries, discrepancy, session, meta, checkpoint, occurredAt, created, updated) VALUES ", &s.movements},
		{"INSERT INTO entries (id, movement, account, delta) VALUES ", &s.entries},
	}
	for _, st := range steps {
		if err := insert(st.head, *st.rows); err != nil {
			return err
		}
		*st.rows = (*st.rows)[:0]
	}
	for _, e := range s.ended {
		parts := strings.Split(strings.Trim(e, "()"), ",")
		if _, err := db.NewQuery("UPDATE charging_sessions SET status = {:st}, endedAt = " + parts[1] + " WHERE id = " + parts[0]).
			Bind(dbx.Params{"st": schema.SessionStatusCompleted}).Execute(); err != nil {
			return err
		}
	}
	s.ended = s.ended[:0]
	for id := range s.dirty {
		if _, err := db.NewQuery("UPDATE accounts SET balance = {:b}, updated = {:now} WHERE id = {:id}").
			Bind(dbx.Params{"b": s.balances[id], "now": s.now, "id": id}).Execute(); err != nil {
			return err
		}
	}
	clear(s.dirty)
	return nil
}
