package backups_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/testkit"
	"swapbay/lib/schema"
	"swapbay/modules/backups"
	"swapbay/modules/inventory"
	"swapbay/modules/restore"
	"swapbay/modules/system"
)

func TestBackupRoutesByRole(t *testing.T) {
	want := map[string]int{testkit.Guest: 401, testkit.Pending: 403, testkit.Driver: 403, testkit.Liaison: 403, testkit.Admin: 200, testkit.Master: 200}
	for _, who := range testkit.AllCallers {
		for _, r := range []struct{ method, body string }{
			{http.MethodGet, ""},
			{http.MethodPut, `{"enabled":true,"time":"02:30","keep":5}`},
		} {
			factory, headers := testkit.As(who, nil)
			s := tests.ApiScenario{
				Name: who + " " + r.method, Method: r.method, URL: "/api/admin/backups", Body: strings.NewReader(r.body),
				Headers: headers, TestAppFactory: factory, ExpectedStatus: want[who], ExpectedContent: []string{`"`},
			}
			if want[who] == 200 && r.method == http.MethodPut {
				s.ExpectedContent = []string{`"time":"02:30"`, `"keep":5`, `"enabled":true`}
				s.AfterTestFunc = func(t testing.TB, app *tests.TestApp, res *http.Response) {
					if got := app.Settings().Backups; got.Cron != "30 2 * * *" || got.CronMaxKeep != 5 {
						t.Fatalf("saved %q keep %d", got.Cron, got.CronMaxKeep)
					}
				}
			}
			if want[who] != 200 && r.method == http.MethodPut {
				s.AfterTestFunc = func(t testing.TB, app *tests.TestApp, res *http.Response) {
					if got := app.Settings().Backups; got.Cron != "0 3 * * *" || got.CronMaxKeep != 7 {
						t.Fatalf("refused caller changed the schedule: %q keep %d", got.Cron, got.CronMaxKeep)
					}
				}
			}
			s.Test(t)
		}
	}
}

func TestScheduleRefusesBadInput(t *testing.T) {
	for _, c := range []struct{ body, msg string }{
		{`{"enabled":true,"time":"25:00","keep":7}`, backups.MsgTimeInvalid},
		{`{"enabled":true,"time":"3pm","keep":7}`, backups.MsgTimeInvalid},
		{`{"enabled":true,"time":"03:00","keep":0}`, backups.MsgKeepInvalid},
		{`{"enabled":true,"time":"03:00","keep":101}`, backups.MsgKeepInvalid},
		{`{"enabled":true,"time":"03:00","keep":1.5}`, backups.MsgKeepInvalid},
		{`{"enabled":true,"time":"03:00","keep":"7"}`, backups.MsgKeepInvalid},
		{`{"enabled":"yes","time":"03:00","keep":7}`, "enabled"},
	} {
		factory, headers := testkit.As(testkit.Admin, nil)
		(&tests.ApiScenario{
			Name: c.body, Method: http.MethodPut, URL: "/api/admin/backups", Body: strings.NewReader(c.body),
			Headers: headers, TestAppFactory: factory, ExpectedStatus: 400, ExpectedContent: []string{c.msg},
			AfterTestFunc: func(t testing.TB, app *tests.TestApp, res *http.Response) {
				if got := app.Settings().Backups; got.Cron != "0 3 * * *" || got.CronMaxKeep != 7 {
					t.Fatalf("refused input changed the schedule: %q keep %d", got.Cron, got.CronMaxKeep)
				}
			},
		}).Test(t)
	}
}

func TestDefaultScheduleAndTimeZone(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	s := backups.ScheduleOf(app)
	if !s.Enabled || s.Time != backups.DefaultTime || s.Keep != backups.DefaultKeep {
		t.Fatalf("default schedule %+v", s)
	}
}

// A saved time_zone moves the backup cron once the save commits (events.SettingsSaved), not
// when the save rolls back.
func TestSavedTimeZoneMovesTheCronAfterCommit(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	save := func(tx core.App, zone string) error {
		_, err := system.SaveSettings(tx, inventory.Op{}, []system.Setting{{Key: schema.SettingTimeZone, Value: json.RawMessage(`"` + zone + `"`)}})
		return err
	}
	before := backups.CronZone(app)
	rollback := errors.New("rolled back")
	if err := app.RunInTransaction(func(tx core.App) error {
		if err := save(tx, "Asia/Tokyo"); err != nil {
			return err
		}
		return rollback
	}); !errors.Is(err, rollback) {
		t.Fatal(err)
	}
	if got := backups.CronZone(app); got != before {
		t.Fatalf("a rolled-back save moved the cron to %v", got)
	}
	if err := save(app, "Europe/Berlin"); err != nil {
		t.Fatal(err)
	}
	if got := backups.CronZone(app); got == nil || got.String() != "Europe/Berlin" {
		t.Fatalf("after the save the cron counts in %v, want Europe/Berlin", got)
	}
}

// The restore drill of issue 15: back up while writes continue, restore into a fresh data
// dir, and compare. The backup taken under load must be a consistent point in time (replay
// equals balances, every movement in it is in the live ledger); the one taken when writes
// stopped must equal the live app: /api/state, every user, every stored file.
func TestRestoreDrill(t *testing.T) {
	live := testkit.NewApp(t)
	defer live.Cleanup()
	c := testkit.SeedCallers(t, live)
	srv := testkit.Serve(t, live)
	post := func(who *core.Record, path, body string) int {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(body))
		for k, v := range testkit.Headers(t, who) {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}

	// writes continue while the first backup runs
	var stop atomic.Bool
	var wg sync.WaitGroup
	var ok atomic.Int64
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
				if post(c.Driver, "/api/driver/pickup", `{"quantity":1,"notes":"drill"}`) == 200 {
					ok.Add(1)
				}
				post(c.Driver, "/api/driver/dropoff-batteries", `{"goodBatteries":1,"deadBatteries":0,"notes":"drill"}`)
			}
		}()
	}
	// the writes are under way before the backup, and go on after it
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(time.Minute); !cond(); <-time.After(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				stop.Store(true)
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	waitFor("writes before the backup", func() bool { return ok.Load() >= 3 })
	underLoad, err := backups.Create(context.Background(), live)
	if err != nil {
		t.Fatal(err)
	}
	after := ok.Load()
	waitFor("writes after the backup", func() bool { return ok.Load() >= after+3 })
	stop.Store(true)
	wg.Wait()
	if ok.Load() == 0 {
		t.Fatal("no write succeeded during the drill")
	}
	// backup names have one-second resolution: the next one is named in a second after the
	// first was written
	waitFor("the next second", func() bool { return time.Now().Unix() > underLoad.Modified.Unix() })
	quiet, err := backups.Create(context.Background(), live)
	if err != nil {
		t.Fatal(err)
	}

	liveSnap := snapshot(t, live, srv.URL)
	for _, b := range []struct {
		backup backups.Backup
		exact  bool
	}{{underLoad, false}, {quiet, true}} {
		dir := filepath.Join(t.TempDir(), "restored")
		if _, err := restore.Run(context.Background(), restore.Archive{Path: filepath.Join(live.DataDir(), core.LocalBackupsDirName, b.backup.Name)}, dir, false); err != nil {
			t.Fatalf("restore %s: %v", b.backup.Name, err)
		}
		restored := testkit.Open(t, dir)
		got := snapshot(t, restored, testkit.Serve(t, restored).URL)
		if len(got.corrections) > 0 {
			t.Errorf("%s: replay differs from balances: %v", b.backup.Name, got.corrections)
		}
		for id := range got.movements {
			if !liveSnap.movements[id] {
				t.Errorf("%s: movement %s is not in the live ledger", b.backup.Name, id)
			}
		}
		if b.exact {
			if got.state != liveSnap.state {
				t.Errorf("state after restore:\n got %s\nwant %s", got.state, liveSnap.state)
			}
			if got.users != liveSnap.users {
				t.Errorf("users after restore:\n got %s\nwant %s", got.users, liveSnap.users)
			}
			if got.files != liveSnap.files {
				t.Errorf("stored files after restore:\n got %s\nwant %s", got.files, liveSnap.files)
			}
			if len(got.movements) != len(liveSnap.movements) {
				t.Errorf("movements after restore: %d, want %d", len(got.movements), len(liveSnap.movements))
			}
		}
		restored.Cleanup()
	}

	// a restore never overwrites data
	dir := filepath.Join(t.TempDir(), "taken")
	src := restore.Archive{Path: filepath.Join(live.DataDir(), core.LocalBackupsDirName, quiet.Name)}
	if _, err := restore.Run(context.Background(), src, dir, false); err != nil {
		t.Fatal(err)
	}
	if _, err := restore.Run(context.Background(), src, dir, false); err != restore.ErrDirNotEmpty {
		t.Fatalf("restore over data: %v", err)
	}
	rep, err := restore.Run(context.Background(), src, dir, true)
	if err != nil || rep.MovedTo == "" {
		t.Fatalf("forced restore: %+v %v", rep, err)
	}
	if _, err := os.Stat(filepath.Join(rep.MovedTo, "data.db")); err != nil {
		t.Fatalf("the replaced data is gone: %v", err)
	}
}

type snap struct {
	state, users, files string
	movements           map[string]bool
	corrections         []any
}

// snapshot reads what a restore must preserve, through the API where it can.
func snapshot(t *testing.T, app *tests.TestApp, base string) snap {
	t.Helper()
	master := testkit.CreateUser(t, app, "master_admin", "approved")
	defer app.Delete(master)
	call := func(method, path string) map[string]any {
		req, _ := http.NewRequest(method, base+path, nil)
		for k, v := range testkit.Headers(t, master) {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var body map[string]any
		json.NewDecoder(res.Body).Decode(&body)
		if res.StatusCode != 200 {
			t.Fatalf("%s %s: %d %v", method, path, res.StatusCode, body)
		}
		return body
	}
	var s snap
	stats, _ := json.Marshal(call(http.MethodGet, "/api/state")["stats"])
	s.state = string(stats)
	recalc := call(http.MethodPost, "/api/admin/recalculate-inventory")
	s.corrections, _ = recalc["corrections"].([]any)

	users, err := app.FindAllRecords(schema.Users)
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, u := range users {
		if u.Id == master.Id {
			continue
		}
		rows = append(rows, fmt.Sprintf("%s|%s|%s|%s|%s %s|%s", u.Id, u.Email(), u.GetString(schema.UserRole),
			u.GetString(schema.UserIsApproved), u.GetString(schema.UserFirstName), u.GetString(schema.UserLastName), u.GetString("password")))
	}
	sort.Strings(rows)
	s.users = strings.Join(rows, "\n")

	s.movements = map[string]bool{}
	mvs, err := app.FindAllRecords(schema.Movements)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mvs {
		s.movements[m.Id] = true
	}

	var files []string
	storage := filepath.Join(app.DataDir(), core.LocalStorageDirName)
	_ = filepath.WalkDir(storage, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, _ := os.ReadFile(p)
		sum := sha256.Sum256(b)
		rel, _ := filepath.Rel(storage, p)
		files = append(files, rel+" "+hex.EncodeToString(sum[:8]))
		return nil
	})
	sort.Strings(files)
	s.files = strings.Join(files, "\n")
	return s
}

// Back up now, sent as the UI sends it (with an Idempotency-Key): a backup cannot run inside
// the keyed request's transaction, so the route opts out of it.
func TestBackUpNowWithAKey(t *testing.T) {
	factory, headers := testkit.As(testkit.Admin, nil)
	headers["Idempotency-Key"] = "backup-now-1"
	(&tests.ApiScenario{
		Name: "back up now", Method: http.MethodPost, URL: "/api/admin/backups", Body: strings.NewReader("{}"),
		Headers: headers, TestAppFactory: factory, ExpectedStatus: 200, ExpectedContent: []string{`"message":"Backup created"`, `"name":"swapbay_`},
		AfterTestFunc: func(t testing.TB, app *tests.TestApp, res *http.Response) {
			list, err := backups.List(app)
			if err != nil || len(list) != 1 || list[0].Size == 0 {
				t.Fatalf("stored backups %v %v", list, err)
			}
		},
	}).Test(t)
}
