// Package crashtest kills the real binary mid-load and checks that nothing is lost or done
// twice (DESIGN.md §11, issue "Nothing lost"): keyed pickups, dropoffs, swaps and charging
// starts from 8 clients, SIGKILL at a random moment, restart, every request retried with its
// key. Every request answered 2xx is in the ledger exactly once; retrying again records
// nothing; replay equals the cached balances; no balance is negative. It runs with pack
// tracking optional and required (issue 42: packs named on every write; in required mode the
// packs at every place stay equal to its count through the kills).
package crashtest

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"swapbay/internal/testbin"
)

const password = "crash-test-secret"

var keyIn = regexp.MustCompile(`crash-\d+`)

// binary is the swapbay binary under test: $SWAPBAY_BIN (the one `make` built) when set, else
// one built for this test (testbin.Path).
func binary(t *testing.T) string {
	t.Helper()
	bin, err := testbin.Path(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

func freePort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

type server struct {
	t    *testing.T
	bin  string
	dir  string
	addr string
	cmd  *exec.Cmd
}

func (s *server) start() {
	s.t.Helper()
	s.cmd = exec.Command(s.bin, "serve", "--http="+s.addr, "--dir="+s.dir)
	s.cmd.Stdout, s.cmd.Stderr = io.Discard, io.Discard
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		if res, err := http.Get("http://" + s.addr + "/api/health"); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatal("server did not start")
}

func (s *server) kill() {
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	_ = s.cmd.Wait()
}

func (s *server) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		s.kill()
	}
}

// request is one keyed mutation and what became of it.
type request struct {
	cookie, key, method, path, body string
	kind                            string // "movement" (tagged by its notes) or "charging"
	movements                       int    // movements one success records (a swap has two halves)
	status                          int    // last answer; 0 = no answer
}

var client = &http.Client{Timeout: 10 * time.Second}

func (s *server) send(r *request) (int, http.Header, []byte) {
	req, _ := http.NewRequest(r.method, "http://"+s.addr+r.path, strings.NewReader(r.body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Cookie", r.cookie)
	req.Header.Set("Idempotency-Key", r.key)
	res, err := client.Do(req)
	if err != nil {
		return 0, nil, nil
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, b
}

func (s *server) login(email string) string {
	s.t.Helper()
	res, err := http.Post("http://"+s.addr+"/api/login", "application/json",
		strings.NewReader(fmt.Sprintf(`{"email":%q,"password":%q}`, email, password)))
	if err != nil {
		s.t.Fatal(err)
	}
	res.Body.Close()
	for _, c := range res.Cookies() {
		if c.Value != "" {
			return c.Name + "=" + c.Value
		}
	}
	s.t.Fatalf("login %s: %d", email, res.StatusCode)
	return ""
}

func TestSIGKILLLosesNothingAndRunsNothingTwice(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills the real binary")
	}
	bin := binary(t)
	// the kills split between the modes: the whole test takes about as long as one mode did
	t.Run("optional", func(t *testing.T) { killRounds(t, bin, "optional", 12) })
	t.Run("required", func(t *testing.T) { killRounds(t, bin, "required", 8) })
}

// fleetPacks is how many packs the fleet has registered in each run.
const fleetPacks = 30

// killRounds runs rounds of load-and-SIGKILL on a fresh data dir under pack tracking mode
// (optional or required) and checks the ledger and the packs after them.
func killRounds(t *testing.T, bin, mode string, rounds int) {
	dir := t.TempDir()
	ids := map[string]string{}
	for _, u := range []struct{ email, role string }{
		{"admin@crash.test", "admin"}, {"master@crash.test", "master_admin"}, {"d1@crash.test", "driver"}, {"d2@crash.test", "driver"}, {"d3@crash.test", "driver"},
	} {
		out, err := exec.Command(bin, "user", "create", "--dir="+dir, "--email="+u.email, "--password="+password,
			"--role="+u.role, "--first=Crash", "--last=Test").Output()
		if err != nil {
			t.Fatalf("user create: %v", err)
		}
		ids[u.email] = strings.TrimSpace(string(out))
	}
	s := &server{t: t, bin: bin, dir: dir, addr: freePort(t)}
	s.start()
	cookies := map[string]string{}
	for email := range ids {
		cookies[email] = s.login(email)
	}
	pack := func(n int) string { return fmt.Sprintf("SWB-%06d", 1+n%fleetPacks) }
	// the fleet's packs (issue 35): registered, tracking optional, and every keyed write below
	// names one; the checks at the end hold each pack once, in one place
	setup := []*request{
		{cookie: cookies["admin@crash.test"], key: "packs-mint", method: "POST", path: "/api/admin/packs/mint", body: fmt.Sprintf(`{"count":%d,"model":"C1"}`, fleetPacks)},
		{cookie: cookies["master@crash.test"], key: "packs-mode", method: "POST", path: "/api/admin/settings", body: `{"settings":[{"key":"pack_tracking","value":"optional"}]}`},
	}
	if mode == "required" {
		// required: the fleet is its packs, all on the ready shelf (the count set to them, and
		// every pack placed there by a pickup and a dropoff naming all of them), then the mode
		// goes to required: from here every write names its packs and the counts and the packs
		// at every place agree
		all := make([]string, fleetPacks)
		for i := range all {
			all[i] = fmt.Sprintf("%q", pack(i))
		}
		named := strings.Join(all, ",")
		setup = append(setup,
			&request{cookie: cookies["master@crash.test"], key: "fleet", method: "POST", path: "/api/admin/emergency-override",
				body: fmt.Sprintf(`{"ready":%d,"waiting":0,"charging":0,"total":%d}`, fleetPacks, fleetPacks)},
			&request{cookie: cookies["admin@crash.test"], key: "place-out", method: "POST", path: "/api/driver/pickup",
				body: fmt.Sprintf(`{"quantity":%d,"notes":"place","packs":[%s]}`, fleetPacks, named)},
			&request{cookie: cookies["admin@crash.test"], key: "place-in", method: "POST", path: "/api/driver/dropoff-batteries",
				body: fmt.Sprintf(`{"goodBatteries":%d,"deadBatteries":0,"notes":"place","goodPacks":[%s]}`, fleetPacks, named)},
			&request{cookie: cookies["master@crash.test"], key: "packs-required", method: "POST", path: "/api/admin/settings", body: `{"settings":[{"key":"pack_tracking","value":"required"}]}`},
		)
	}
	for _, r := range setup {
		if st, _, body := s.send(r); st != 200 {
			t.Fatalf("%s: %d %s", r.path, st, body)
		}
	}
	if mode == "required" {
		packsAgree(t, dir, true)
		// the mode is in force: a write naming no pack is refused
		r := &request{cookie: cookies["d1@crash.test"], key: "no-packs", method: "POST", path: "/api/driver/pickup", body: `{"quantity":1,"notes":"none"}`}
		if st, _, body := s.send(r); st != 400 || !strings.Contains(string(body), "pack_count") {
			t.Fatalf("a pickup naming no pack in required mode: %d %s; want 400 pack_count", st, body)
		}
	}

	var all []*request
	seq := 0
	for round := 0; round < rounds; round++ {
		// 8 clients, each a stream of keyed requests until the server dies under it
		var mu sync.Mutex
		var batch []*request
		next := func(c int) *request {
			mu.Lock()
			defer mu.Unlock()
			seq++
			key := fmt.Sprintf("crash-%d", seq)
			d := fmt.Sprintf("d%d@crash.test", c%3+1)
			other := fmt.Sprintf("d%d@crash.test", (c+1)%3+1)
			var r *request
			switch seq % 5 {
			case 0, 1:
				r = &request{cookie: cookies[d], method: "POST", path: "/api/driver/pickup", kind: "movement",
					body: fmt.Sprintf(`{"quantity":1,"notes":%q,"packs":[%q]}`, key, pack(seq))}
			case 2:
				r = &request{cookie: cookies[d], method: "POST", path: "/api/driver/dropoff-batteries", kind: "movement",
					body: fmt.Sprintf(`{"goodBatteries":0,"deadBatteries":1,"notes":%q,"deadPacks":[%q]}`, key, pack(seq))}
			case 3:
				r = &request{cookie: cookies["admin@crash.test"], method: "POST", path: "/api/admin/driver-swap", kind: "movement",
					body: fmt.Sprintf(`{"fromUserId":%q,"toUserId":%q,"goodBatteries":1,"deadBatteries":0,"notes":%q,"goodPacks":[%q]}`, ids[d], ids[other], key, pack(seq))}
			case 4:
				r = &request{cookie: cookies["admin@crash.test"], method: "POST", path: "/api/start-charging", kind: "charging",
					body: fmt.Sprintf(`{"chargerType":"4A","quantity":1,"packs":[%q]}`, pack(seq))}
			}
			r.key = key
			r.movements = 1
			if strings.HasSuffix(r.path, "/driver-swap") {
				r.movements = 2
			}
			batch = append(batch, r)
			return r
		}
		var wg sync.WaitGroup
		for c := 0; c < 8; c++ {
			wg.Add(1)
			go func(c int) {
				defer wg.Done()
				for i := 0; i < 400; i++ {
					r := next(c)
					if r.status, _, _ = s.send(r); r.status == 0 {
						return // the server is gone
					}
				}
			}(c)
		}
		time.Sleep(time.Duration(100+rand.IntN(400)) * time.Millisecond)
		s.kill()
		wg.Wait()
		all = append(all, batch...)
		s.start()
		// every request of the round is retried with its key
		for _, r := range batch {
			r.status, _, _ = s.send(r)
			if r.status == 0 {
				t.Fatalf("round %d: no answer to %s after the restart", round, r.key)
			}
		}
	}

	// a second retry of everything that succeeded records nothing new (a refused request is
	// not kept, so its retry may legitimately run)
	before := counts(t, dir)
	for _, r := range all {
		if r.status < 200 || r.status > 299 {
			continue
		}
		st, h, _ := s.send(r)
		if st >= 200 && st < 300 && h.Get("Idempotent-Replayed") != "true" {
			t.Errorf("%s ran again on the second retry", r.key)
		}
	}
	if after := counts(t, dir); after != before {
		t.Fatalf("the second retry changed the ledger: %+v → %+v", before, after)
	}

	// exactly once: every tagged request answered 2xx has one movement; charging starts match
	tagged := map[string]int{}
	db := open(t, dir)
	// the notes may carry the spec's markers after the key (a dropoff beyond what was held)
	rows, err := db.Query(`SELECT notes FROM movements WHERE notes LIKE '%crash-%'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var notes string
		_ = rows.Scan(&notes)
		tagged[keyIn.FindString(notes)]++
	}
	rows.Close()
	okMovements, okCharging := 0, 0
	for _, r := range all {
		ok := r.status >= 200 && r.status < 300
		switch {
		case r.kind == "charging" && ok:
			okCharging++
		case r.kind == "movement" && ok:
			okMovements++
			if tagged[r.key] != r.movements {
				t.Errorf("%s answered %d but has %d movements in the ledger, want %d", r.key, r.status, tagged[r.key], r.movements)
			}
		case r.kind == "movement" && tagged[r.key] != 0:
			t.Errorf("%s was refused (%d) but is in the ledger %d times", r.key, r.status, tagged[r.key])
		}
	}
	var sessions int
	_ = db.QueryRow(`SELECT COUNT(*) FROM charging_sessions`).Scan(&sessions)
	if sessions != okCharging {
		t.Errorf("%d charging sessions for %d successful keyed starts", sessions, okCharging)
	}
	var negative int
	_ = db.QueryRow(`SELECT COUNT(*) FROM accounts WHERE kind != 'outside' AND balance < 0`).Scan(&negative)
	if negative != 0 {
		t.Errorf("%d negative balances", negative)
	}
	checkPacks(t, db)
	db.Close()
	if mode == "required" {
		packsAgree(t, dir, false)
	}

	// replay equals the cached balances
	st, _, body := s.send(&request{cookie: cookies["admin@crash.test"], key: "recalc-final", method: "POST", path: "/api/admin/recalculate-inventory", body: "{}"})
	var rec struct{ Corrections []any }
	_ = json.Unmarshal(body, &rec)
	if st != 200 || len(rec.Corrections) != 0 {
		t.Fatalf("recalculation after %d kills: %d, corrections %v", rounds, st, rec.Corrections)
	}
	s.stop()
	if okMovements == 0 || okCharging == 0 {
		t.Errorf("%s: %d movements and %d charging starts succeeded; want some of each", mode, okMovements, okCharging)
	}
	t.Logf("%s: %d rounds, %d keyed requests: %d movements and %d charging starts recorded once each", mode, rounds, len(all), okMovements, okCharging)
}

// checkPacks holds the packs to the ledger after the kills: every pack move belongs to a
// stored movement (a killed transaction left none behind), each movement moved each of its
// packs once (no retry or replay moved one twice), and each pack is where its last move put it.
func checkPacks(t *testing.T, db *sql.DB) {
	t.Helper()
	var orphans, moved int
	_ = db.QueryRow(`SELECT COUNT(*) FROM pack_events WHERE movement != '' AND movement NOT IN (SELECT id FROM movements)`).Scan(&orphans)
	if orphans != 0 {
		t.Errorf("%d pack events of no movement", orphans)
	}
	rows, err := db.Query(`SELECT m.id, COALESCE(json_array_length(m.meta, '$.packs'), 0),
		(SELECT COUNT(*) FROM pack_events e WHERE e.movement = m.id AND e.kind IN ('moved', 'discrepancy', 'charged'))
		FROM movements m`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		var inMeta, events int
		_ = rows.Scan(&id, &inMeta, &events)
		moved += inMeta
		if inMeta != events {
			t.Errorf("movement %s moved %d packs but has %d pack moves in their history", id, inMeta, events)
		}
	}
	rows.Close()
	var misplaced int
	_ = db.QueryRow(`SELECT COUNT(*) FROM packs p WHERE p.location != COALESCE((SELECT e.toAccount FROM pack_events e
		WHERE e.pack = p.id AND e.kind IN ('moved', 'discrepancy', 'charged') ORDER BY e.rowid DESC LIMIT 1), '')`).Scan(&misplaced)
	if misplaced != 0 {
		t.Errorf("%d packs are not where their last move put them", misplaced)
	}
	var packs, nowhere int
	_ = db.QueryRow(`SELECT COUNT(*), COALESCE(SUM(location != '' AND location NOT IN (SELECT id FROM accounts)), 0) FROM packs`).Scan(&packs, &nowhere)
	if packs != fleetPacks || nowhere != 0 || moved == 0 {
		t.Errorf("%d packs (want %d), %d at a place that does not exist, %d pack moves", packs, fleetPacks, nowhere, moved)
	}
}

// packsAgree checks required mode's promise (DESIGN.md §14) as far as this load lets it hold:
// at every place batteries are counted (ready, waiting, quarantine, a person, a charging
// session) no more packs are located than its count, and every pack is placed; with exact,
// every place holds exactly its count. Exact holds right after the fleet is placed; the load
// then names packs wherever the records have them (a scan is a physical fact: the pack moves
// and its old place keeps its count) and dropoffs beyond what a driver held bring batteries
// from outside, so the fleet outgrows its packs and only "no more packs than batteries" can
// hold (the pack property test checks the exact agreement under writes that can keep it).
func packsAgree(t *testing.T, dir string, exact bool) {
	t.Helper()
	db := open(t, dir)
	defer db.Close()
	rows, err := db.Query(`SELECT a.id, a.kind, a.balance, (SELECT COUNT(*) FROM packs p WHERE p.location = a.id)
		FROM accounts a WHERE a.kind != 'outside'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	placed := 0
	for rows.Next() {
		var id, kind string
		var balance, located int
		_ = rows.Scan(&id, &kind, &balance, &located)
		placed += located
		if located > balance || exact && located != balance {
			t.Errorf("required mode: account %s (%s) counts %d batteries but holds %d packs", id, kind, balance, located)
		}
	}
	if placed != fleetPacks {
		t.Errorf("required mode: %d packs placed; want all %d", placed, fleetPacks)
	}
}

type tally struct{ movements, sessions, entries int }

func counts(t *testing.T, dir string) tally {
	db := open(t, dir)
	defer db.Close()
	var c tally
	_ = db.QueryRow(`SELECT COUNT(*) FROM movements`).Scan(&c.movements)
	_ = db.QueryRow(`SELECT COUNT(*) FROM charging_sessions`).Scan(&c.sessions)
	_ = db.QueryRow(`SELECT COUNT(*) FROM entries`).Scan(&c.entries)
	return c
}

func open(t *testing.T, dir string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "data.db")+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// With the disk full, writes fail with a clear 5xx, nothing is half-written, reads keep
// answering, and writing works again once space returns.
func TestDiskFullRefusesCleanlyAndRecovers(t *testing.T) {
	if testing.Short() {
		t.Skip("mounts a small tmpfs and runs the real binary")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=48m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here (needs root): %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", mnt).Run() })
	bin := binary(t)
	dir := filepath.Join(mnt, "pb_data")
	if _, err := exec.Command(bin, "user", "create", "--dir="+dir, "--email=d@full.test", "--password="+password,
		"--role=driver", "--first=Disk", "--last=Full").Output(); err != nil {
		t.Fatalf("user create: %v", err)
	}
	s := &server{t: t, bin: bin, dir: dir, addr: freePort(t)}
	s.start()
	defer s.stop()
	cookie := s.login("d@full.test")
	pickup := func(key string) (int, string) {
		st, _, b := s.send(&request{cookie: cookie, key: key, method: "POST", path: "/api/driver/pickup",
			body: fmt.Sprintf(`{"quantity":1,"notes":%q}`, key)})
		return st, string(b)
	}
	if st, b := pickup("full-0"); st != 200 {
		t.Fatalf("first pickup: %d %s", st, b)
	}
	before := counts(t, dir)

	// fill the disk
	filler := filepath.Join(mnt, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 1<<20)
	for {
		if _, err := f.Write(chunk); err != nil {
			break
		}
	}
	small := make([]byte, 4096)
	for {
		if _, err := f.Write(small); err != nil {
			break
		}
	}
	f.Close()

	refused := 0
	for i := 1; i <= 20; i++ {
		st, b := pickup(fmt.Sprintf("full-%d", i))
		if st == 200 {
			continue // a page freed by SQLite can still take a small write
		}
		refused++
		if st < 500 || !strings.Contains(b, "out of storage space") {
			t.Fatalf("write on a full disk: %d %s", st, b)
		}
	}
	if refused == 0 {
		t.Fatal("no write was refused on a full disk")
	}
	// reads still answer
	req, _ := http.NewRequest("GET", "http://"+s.addr+"/api/state", nil)
	req.Header.Set("Cookie", cookie)
	if res, err := client.Do(req); err != nil || res.StatusCode != 200 {
		t.Fatalf("read on a full disk: %v %v", err, res)
	}

	// space returns: writing works again, and the ledger holds only whole movements
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if st, b := pickup("full-after"); st != 200 {
		t.Fatalf("pickup after space returned: %d %s", st, b)
	}
	after := counts(t, dir)
	if after.movements-before.movements != 20-refused+1 {
		t.Errorf("movements %d → %d with %d refused of 20 (+1 after)", before.movements, after.movements, refused)
	}
	if after.entries-before.entries != 2*(after.movements-before.movements) {
		t.Errorf("half-written movements: %d entries for %d movements", after.entries-before.entries, after.movements-before.movements)
	}
}
