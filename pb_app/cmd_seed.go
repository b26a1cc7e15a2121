package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/spf13/cobra"

	"swapbay/lib/clock"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/charging"
	"swapbay/modules/custody"
	"swapbay/modules/inventory"
	"swapbay/modules/packs"
	"swapbay/modules/system"
	"swapbay/modules/users"
)

// DemoPassword is the password of every demo account.
const DemoPassword = "swapbay-demo"

// demoDays is how much history seed-demo writes.
const demoDays = 14

// errNotEmpty refuses seeding a data dir that already has users.
var errNotEmpty = errors.New("the data dir already has users: seed-demo only loads an empty data dir")

// demoUser is one demo account.
type demoUser struct {
	email, first, last, role string
}

// demoLogins are printed after seeding: one login per role.
var demoLogins = []demoUser{
	{"master@swapbay.local", "Maya", "Okafor", roles.MasterAdmin},
	{"admin@swapbay.local", "Alex", "Brandt", roles.Admin},
	{"driver@swapbay.local", "Dana", "Reyes", roles.Driver},
	{"liaison@swapbay.local", "Lee", "Whitman", roles.Liaison},
}

// demoWaiting are accounts that are not approved: one registrant waiting for approval (the
// Users page's Pending Approval list) and one suspended driver.
var demoWaiting = []struct {
	demoUser
	approval string
}{
	{demoUser{"noah@swapbay.local", "Noah", "Fischer", roles.Driver}, roles.Pending},
	{demoUser{"lucas@swapbay.local", "Lucas", "Moreau", roles.Driver}, roles.Suspended},
}

// demoDrivers are the other drivers of the demo bay.
var demoDrivers = []demoUser{
	{"sam@swapbay.local", "Sam", "Kowalski", roles.Driver},
	{"priya@swapbay.local", "Priya", "Natarajan", roles.Driver},
	{"jonas@swapbay.local", "Jonas", "Lind", roles.Driver},
	{"maria@swapbay.local", "Maria", "Costa", roles.Driver},
	{"tomas@swapbay.local", "Tomás", "Herrera", roles.Driver},
	{"aisha@swapbay.local", "Aisha", "Bello", roles.Driver},
}

var dropoffNotes = []string{
	"Smooth shift, no issues.",
	"Two scooters near the harbour had loose battery latches.",
	"Heavy rain in the afternoon, fewer swaps.",
	"One battery casing cracked, marked it dead.",
	"Downtown cluster was busy; rebalanced the station by the park.",
	"Parking at the university was blocked, used the side entrance.",
	"All good.",
}

// newSeedDemoCommand is `swapbay seed-demo`: demo users (one login per role) and two weeks of
// history written through the ledger's operation functions, on an empty data dir.
func newSeedDemoCommand(app core.App) *cobra.Command {
	var withoutReadings bool
	var packPrefix string
	cmd := command("seed-demo", "Load demo users and two weeks of battery history into an empty data dir", "swapbay seed-demo --dir=./pb_data",
		migrated(app, func(cmd *cobra.Command) error {
			return seedDemoWith(app, clock.Now(), cmd.OutOrStdout(), demoOptions{withoutReadings: withoutReadings, packPrefix: packPrefix})
		}))
	// the e2e tests import the readings themselves (`swapbay demo-readings` prints them)
	cmd.Flags().BoolVar(&withoutReadings, "without-readings", false, "leave out the packs' demo readings (the pack models are still set)")
	// `make run-hq` seeds three cities whose serials must not collide (DESIGN.md §14–15)
	cmd.Flags().StringVar(&packPrefix, "pack-prefix", "", "the serial prefix of the demo packs (2 to 8 capital letters or digits; default the operation's, SWB)")
	return cmd
}

// demoOptions change what seed-demo writes.
type demoOptions struct {
	withoutReadings bool   // no pack readings (health.DemoReadingsCSV): an import of them is the test
	packPrefix      string // the serial prefix set before the packs are minted ("" keeps the operation's)
}

// seedDemo writes the demo data set as of now and prints the demo logins to out.
func seedDemo(app core.App, now time.Time, out io.Writer) error {
	return seedDemoWith(app, now, out, demoOptions{})
}

// seedDemoWith is seedDemo with opts.
func seedDemoWith(app core.App, now time.Time, out io.Writer, opts demoOptions) error {
	var count int
	if err := app.DB().NewQuery("SELECT COUNT(*) FROM " + schema.Users).Row(&count); err != nil {
		return err
	}
	if count > 0 {
		return errNotEmpty
	}
	loc, err := system.Location(app)
	if err != nil {
		return err
	}
	s := &seeder{app: app, rnd: rand.New(rand.NewPCG(7, 11)), loc: loc, now: now, opts: opts}
	// the steps in order: each reads what the ones before it wrote
	for _, step := range []func() error{
		s.createUsers,
		s.registerPacks,
		s.history,
		s.datedOpening,
		s.pay,
		s.photos,
		s.packSafety,
		s.packHealth,
		s.agreements,
		s.recordedWhenTheyHappened,
	} {
		if err := step(); err != nil {
			return err
		}
	}
	var movements int
	_ = app.DB().NewQuery("SELECT COUNT(*) FROM " + schema.Movements).Row(&movements)
	stats, err := inventory.Stats(app)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Demo data loaded: %d users, %d movements over %d days; total %d, ready %d, waiting %d, charging %d, in field %d.\n",
		len(s.all), movements, demoDays, stats.Total, stats.Ready, stats.Waiting, stats.Charging, stats.InField)
	fmt.Fprintf(out, "Demo logins (password %q):\n", DemoPassword)
	for _, u := range demoLogins {
		fmt.Fprintf(out, "  %-17s %s\n", u.role, u.email)
	}
	return nil
}

// seeder plays two weeks of a small bay through the ledger's operation functions.
type seeder struct {
	app     core.App
	rnd     *rand.Rand
	loc     *time.Location
	now     time.Time
	all     []*core.Record
	admin   *core.Record
	master  *core.Record
	drivers []*core.Record
	active  []string // active session ids
	opts    demoOptions
}

func (s *seeder) createUsers() error {
	for _, u := range append(append([]demoUser{}, demoLogins...), demoDrivers...) {
		rec, err := users.Create(s.app, users.NewUser{Email: u.email, Password: DemoPassword,
			FirstName: u.first, LastName: u.last, Role: u.role, Approval: roles.Approved})
		if err != nil {
			return fmt.Errorf("create %s: %w", u.email, err)
		}
		s.all = append(s.all, rec)
		switch u.role {
		case roles.Admin:
			s.admin = rec
		case roles.MasterAdmin:
			s.master = rec
		case roles.Driver:
			s.drivers = append(s.drivers, rec)
		}
	}
	for _, u := range demoWaiting {
		rec, err := users.Create(s.app, users.NewUser{Email: u.email, Password: DemoPassword,
			FirstName: u.first, LastName: u.last, Role: u.role, Approval: u.approval})
		if err != nil {
			return fmt.Errorf("create %s: %w", u.email, err)
		}
		s.all = append(s.all, rec)
	}
	return nil
}

// datedOpening dates the opening balance (the install's checkpoint movement) at the start of
// the history, so the activity feeds show it last, where it belongs, not on top.
func (s *seeder) datedOpening() error {
	today := clock.DayStart(s.now, s.loc)
	start := time.Date(today.Year(), today.Month(), today.Day()-demoDays, 6, 0, 0, 0, s.loc)
	_, err := s.app.DB().NewQuery("UPDATE " + schema.Movements + " SET " + schema.MovementOccurredAt + " = {:t}, created = {:t} WHERE " +
		schema.MovementCheckpoint + " = TRUE").Bind(map[string]any{"t": start.UTC().Format("2006-01-02 15:04:05.000Z")}).Execute()
	return err
}

// recordedWhenTheyHappened sets every seeded movement's recordedAt to its occurredAt: the
// history is made now, but stands for actions sent as they happened, so the feeds mark none
// of them as sent late ("done 17:17 · sent 17:56" on every row, issue 32).
func (s *seeder) recordedWhenTheyHappened() error {
	_, err := s.app.DB().NewQuery("UPDATE " + schema.Movements + " SET " + schema.MovementRecordedAt + " = " + schema.MovementOccurredAt).Execute()
	return err
}

func (s *seeder) op(actor *core.Record, at time.Time, notes string) inventory.Op {
	return inventory.Op{Actor: actor, At: at, Notes: notes}
}

// at is hour:minute local time on day (a local midnight), with a little jitter.
func (s *seeder) at(day time.Time, hour, minute int) time.Time {
	return time.Date(day.Year(), day.Month(), day.Day(), hour, minute+s.rnd.IntN(20), s.rnd.IntN(60), 0, s.loc)
}

func (s *seeder) balance(key string) (int, error) {
	acc, err := inventory.SystemAccount(s.app, key)
	if err != nil {
		return 0, err
	}
	return acc.Balance(), nil
}

// history writes demoDays days up to now: mornings complete last night's charging and send
// drivers out, days log moves and recovers, evenings bring batteries back and start charging.
// Special days add manual assignments, a driver swap and a dead-battery handover. Anything
// that would fall after now is not written, and the end leaves a couple of sessions active.
func (s *seeder) history() error {
	today := clock.DayStart(s.now, s.loc)
	for d := demoDays - 1; d >= 0; d-- {
		day := time.Date(today.Year(), today.Month(), today.Day()-d, 0, 0, 0, 0, s.loc)
		if err := s.day(day, d); err != nil {
			return fmt.Errorf("day %s: %w", clock.DateString(day), err)
		}
	}
	return s.finish()
}

func (s *seeder) past(t time.Time) bool { return t.Before(s.now.Add(-time.Minute)) }

func (s *seeder) day(day time.Time, daysAgo int) error {
	// 07:30 the night's charging is done
	if t := s.at(day, 7, 30); s.past(t) {
		for _, id := range s.active {
			if _, _, err := charging.Complete(s.app, s.op(s.admin, t, ""), id); err != nil {
				return err
			}
		}
		s.active = nil
	}
	// 08:00 pickups (a driver or two takes the day off)
	working := map[string]bool{}
	for i, drv := range s.drivers {
		if (i+daysAgo)%5 == 4 {
			continue
		}
		t := s.at(day, 8, 3*i)
		if !s.past(t) {
			continue
		}
		ready, err := s.balance(inventory.KeyReady)
		if err != nil {
			return err
		}
		q := min(4+s.rnd.IntN(5), ready-20)
		if q < 1 {
			continue
		}
		notes := "Y"
		if s.rnd.IntN(4) == 0 {
			notes = "N"
		}
		if _, err := inventory.Pickup(s.app, s.withPacks(s.op(drv, t, notes), s.packsAt(inventory.KeyReady, q)), drv.Id, q); err != nil {
			return err
		}
		working[drv.Id] = true
	}
	// special days
	switch daysAgo {
	case 12:
		if t := s.at(day, 9, 30); s.past(t) {
			if _, _, err := custody.Assign(s.app, s.withPacks(s.op(s.admin, t, "Home charger for the weekend"), s.packsAt(inventory.KeyReady, 4)), s.drivers[1].Id, 4, "home_charger"); err != nil {
				return err
			}
		}
	case 9:
		// a driver hands two batteries to a colleague who ran short
		if t := s.at(day, 12, 0); s.past(t) {
			var pair []*core.Record
			for _, drv := range s.drivers {
				if working[drv.Id] && s.pickupHeld(drv.Id) >= 2 && len(pair) < 2 {
					pair = append(pair, drv)
				}
			}
			if len(pair) == 2 {
				req := custody.SwapRequest{FromUserId: pair[0].Id, ToUserId: pair[1].Id, Good: 2}
				notes := pair[0].GetString(schema.UserFirstName) + " covered " + pair[1].GetString(schema.UserFirstName) + "'s zone"
				op := s.op(s.admin, t, notes)
				op.Packs.GoodPacks = s.packsAt(inventory.HolderKey(pair[0].Id, inventory.AssignmentPickup), 2)
				if _, err := custody.Swap(s.app, op, req); err != nil {
					return err
				}
			}
		}
	case 6:
		if t := s.at(day, 9, 0); s.past(t) {
			if _, err := custody.DeleteAssignment(s.app, s.op(s.master, t, ""), s.drivers[1].Id); err != nil {
				return err
			}
		}
	case 2:
		if t := s.at(day, 10, 0); s.past(t) {
			if _, _, err := custody.Assign(s.app, s.withPacks(s.op(s.master, t, "Spare set for the airport zone"), s.packsAt(inventory.KeyReady, 3)), s.drivers[3].Id, 3, "in_transit"); err != nil {
				return err
			}
		}
	}
	// 10:00–16:00 moves and recovers
	for i, drv := range s.drivers {
		if !working[drv.Id] {
			continue
		}
		if t := s.at(day, 10+i%4, 10); s.past(t) {
			if _, err := inventory.LogActivity(s.app, s.op(drv, t, "Moves activity logged"), drv.Id, inventory.TypeRebalance, 3+s.rnd.IntN(10)); err != nil {
				return err
			}
		}
		if t := s.at(day, 14+i%3, 5); s.past(t) && s.rnd.IntN(3) > 0 {
			if _, err := inventory.LogActivity(s.app, s.op(drv, t, "Recovers activity logged"), drv.Id, inventory.TypeRetrievesRepairs, 1+s.rnd.IntN(4)); err != nil {
				return err
			}
		}
	}
	// 17:00 dropoffs of the pickup holding: some dead, the rest good
	for i, drv := range s.drivers {
		if !working[drv.Id] {
			continue
		}
		t := s.at(day, 17, 4*i)
		if !s.past(t) {
			continue
		}
		held := s.pickupHeld(drv.Id)
		if held < 1 {
			continue
		}
		dead := s.rnd.IntN(held/2 + 1)
		op := s.dropoffPacks(s.op(drv, t, dropoffNotes[s.rnd.IntN(len(dropoffNotes))]), drv.Id, held-dead, dead)
		if i == 1 && (daysAgo == 10 || daysAgo == 4) {
			s.misread(&op, drv.Id)
		}
		if _, err := inventory.Dropoff(s.app, op, drv.Id, held-dead, dead); err != nil {
			return err
		}
	}
	// 19:00 charging of what is waiting, split over two chargers
	if t := s.at(day, 19, 0); s.past(t) {
		if err := s.chargeWaiting(t); err != nil {
			return err
		}
	}
	return nil
}

func (s *seeder) chargeWaiting(t time.Time) error {
	waiting, err := s.balance(inventory.KeyWaiting)
	if err != nil {
		return err
	}
	for i, q := range []int{(waiting + 1) / 2, waiting / 2} {
		if q < 1 {
			continue
		}
		charger := []string{"4A", "5A", "2.5A"}[s.rnd.IntN(3)]
		sess, _, err := charging.Start(s.app, s.withPacks(s.op(s.admin, t.Add(time.Duration(i)*3*time.Minute), ""), s.packsAt(inventory.KeyWaiting, q)), charger, q)
		if err != nil {
			return err
		}
		s.active = append(s.active, sess.Id)
	}
	return nil
}

// finish makes sure the demo shows something on chargers: when the night's sessions were
// already completed this morning, it puts what is waiting (or a few ready ones' worth of
// dead returns) on chargers now.
func (s *seeder) finish() error {
	if len(s.active) >= 2 {
		return s.showcase()
	}
	waiting, err := s.balance(inventory.KeyWaiting)
	if err != nil {
		return err
	}
	if waiting < 2 {
		// a driver brings back a few dead batteries
		drv := s.drivers[0]
		if held := s.pickupHeld(drv.Id); held > 0 {
			if _, err := inventory.Dropoff(s.app, s.dropoffPacks(s.op(drv, s.now.Add(-50*time.Minute), "Brought back the dead ones early"), drv.Id, 0, held), drv.Id, 0, held); err != nil {
				return err
			}
		} else if ready, _ := s.balance(inventory.KeyReady); ready > 4 {
			if _, err := inventory.Pickup(s.app, s.withPacks(s.op(drv, s.now.Add(-3*time.Hour), "Y"), s.packsAt(inventory.KeyReady, 3)), drv.Id, 3); err != nil {
				return err
			}
			if _, err := inventory.Dropoff(s.app, s.dropoffPacks(s.op(drv, s.now.Add(-50*time.Minute), "Three went flat on the hill route"), drv.Id, 0, 3), drv.Id, 0, 3); err != nil {
				return err
			}
		}
	}
	if err := s.chargeWaiting(s.now.Add(-40 * time.Minute)); err != nil {
		return err
	}
	return s.showcase()
}

// showcase leaves every operations screen something to show: a charging session past its
// ETA (due) and one running, batteries waiting to charge, and holdings of several types.
func (s *seeder) showcase() error {
	if ready, _ := s.balance(inventory.KeyReady); ready > 30 {
		drv := s.drivers[2]
		if _, err := inventory.Pickup(s.app, s.withPacks(s.op(drv, s.now.Add(-6*time.Hour), "Y"), s.packsAt(inventory.KeyReady, 7)), drv.Id, 7); err != nil {
			return err
		}
		// two flat ones back early go on a 4A charger (3 h): due by now
		if _, err := inventory.Dropoff(s.app, s.dropoffPacks(s.op(drv, s.now.Add(-5*time.Hour), "Two went flat before noon"), drv.Id, 0, 2), drv.Id, 0, 2); err != nil {
			return err
		}
		if _, _, err := charging.Start(s.app, s.withPacks(s.op(s.admin, s.now.Add(-4*time.Hour), ""), s.packsAt(inventory.KeyWaiting, 2)), "4A", 2); err != nil {
			return err
		}
		// five more dead ones: two go on a charger now, three wait for a free one
		if _, err := inventory.Dropoff(s.app, s.dropoffPacks(s.op(drv, s.now.Add(-25*time.Minute), "Five dead after the hill route"), drv.Id, 0, 5), drv.Id, 0, 5); err != nil {
			return err
		}
		if _, _, err := charging.Start(s.app, s.withPacks(s.op(s.admin, s.now.Add(-15*time.Minute), ""), s.packsAt(inventory.KeyWaiting, 2)), "5A", 2); err != nil {
			return err
		}
		if _, _, err := custody.Assign(s.app, s.withPacks(s.op(s.admin, s.now.Add(-2*time.Hour), "Swollen cells, sent for inspection"), s.packsAt(inventory.KeyReady, 2)), s.drivers[4].Id, 2, "maintenance"); err != nil {
			return err
		}
		if _, _, err := custody.Assign(s.app, s.withPacks(s.op(s.admin, s.now.Add(-90*time.Minute), "Evening charging at home"), s.packsAt(inventory.KeyReady, 3)), s.drivers[0].Id, 3, "home_charger"); err != nil {
			return err
		}
	}
	return nil
}

func (s *seeder) pickupHeld(userId string) int {
	acc, err := inventory.FindAccountByKey(s.app, inventory.HolderKey(userId, inventory.AssignmentPickup))
	if err != nil {
		return 0
	}
	return acc.Balance()
}

// registerPacks mints the demo fleet's packs (one per battery of the opening stock, on the
// ready shelf) and turns pack tracking to optional: the history then names its packs, so the
// pack list and each pack's page have two weeks to show (DESIGN.md §14).
func (s *seeder) registerPacks() error {
	if s.opts.packPrefix != "" {
		value, _ := json.Marshal(s.opts.packPrefix)
		if _, err := system.SaveSettings(s.app, inventory.Op{}, []system.Setting{{Key: schema.SettingPackPrefix, Value: value}}); err != nil {
			return fmt.Errorf("pack prefix: %w", err)
		}
	}
	total, err := inventory.TotalBatteries.Read(s.app)
	if err != nil {
		return err
	}
	today := clock.DayStart(s.now, s.loc)
	start := time.Date(today.Year(), today.Month(), today.Day()-demoDays, 6, 0, 0, 0, s.loc)
	specs := packs.Specs{Model: "SB-36V-10", Chemistry: "NMC", NominalWh: 360, Manufacturer: "Voltera Cells", Lot: "L2025-11", Manufactured: start.AddDate(0, -2, 0).Format("2006-01")}
	minted, err := packs.Mint(s.app, total, specs, s.master.Id, start)
	if err != nil {
		return err
	}
	ready, err := inventory.SystemAccount(s.app, inventory.KeyReady)
	if err != nil {
		return err
	}
	ids := make([]any, len(minted))
	for i, p := range minted {
		ids[i] = p.Id
	}
	if _, err := s.app.DB().Update(schema.Packs, dbx.Params{schema.PackLocation: ready.Id}, dbx.In("id", ids...)).Execute(); err != nil {
		return err
	}
	_, err = system.SaveSettings(s.app, inventory.Op{}, []system.Setting{{Key: schema.SettingPackTracking, Value: []byte(`"` + schema.PackTrackingOptional + `"`)}})
	return err
}

// packsAt returns up to n serials the records put at account key, the least recently seen
// first (the shelf rotates).
func (s *seeder) packsAt(key string, n int) []string {
	var serials []string
	_ = s.app.DB().NewQuery("SELECT p.serial FROM " + schema.Packs + " p JOIN " + schema.Accounts + " a ON a.id = p.location " +
		"WHERE a.key = {:k} ORDER BY p.lastSeenAt, p.serial LIMIT {:n}").Bind(dbx.Params{"k": key, "n": n}).Column(&serials)
	return serials
}

// withPacks names packs on op.
func (s *seeder) withPacks(op inventory.Op, serials []string) inventory.Op {
	op.Packs.Packs = serials
	return op
}

// dropoffPacks names the packs of a dropoff of good and dead from userId's pickup holding.
func (s *seeder) dropoffPacks(op inventory.Op, userId string, good, dead int) inventory.Op {
	held := s.packsAt(inventory.HolderKey(userId, inventory.AssignmentPickup), good+dead)
	cut := min(good, len(held))
	op.Packs.GoodPacks, op.Packs.DeadPacks = held[:cut], held[cut:]
	return op
}

// misread swaps one good pack of a dropoff for one another driver holds (a label read at the
// wrong scooter): the pack moves anyway and admins see a discrepancy.
func (s *seeder) misread(op *inventory.Op, userId string) {
	if len(op.Packs.GoodPacks) == 0 {
		return
	}
	var other string
	_ = s.app.DB().NewQuery("SELECT p.serial FROM " + schema.Packs + " p JOIN " + schema.Accounts + " a ON a.id = p.location " +
		"WHERE a.kind = 'holder' AND a.user != {:u} ORDER BY p.serial LIMIT 1").Bind(dbx.Params{"u": userId}).Row(&other)
	if other != "" {
		op.Packs.GoodPacks = append([]string{other}, op.Packs.GoodPacks[1:]...)
	}
}
