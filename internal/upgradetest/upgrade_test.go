// Package upgradetest checks that a data dir written by an earlier release still serves after
// this release's migrations run forward on it (README "Upgrading").
//
// testdata/release-1-seed-demo.zip is `swapbay seed-demo` run by release 1 (commit 09ad99c,
// the first landed release): its data.db, before any later migration.
package upgradetest

import (
	"archive/zip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/testkit"
	"swapbay/pb_app/setup"
)

func unzip(t *testing.T, src, dir string) {
	t.Helper()
	r, err := zip.OpenReader(src)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, f := range r.File {
		in, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		out, err := os.Create(filepath.Join(dir, filepath.Base(f.Name)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(out, in); err != nil {
			t.Fatal(err)
		}
		out.Close()
		in.Close()
	}
}

func TestReleaseOneDataDirServes(t *testing.T) {
	dir := t.TempDir()
	unzip(t, "testdata/release-1-seed-demo.zip", dir)
	app, err := tests.NewTestApp(dir) // bootstraps and runs every migration forward
	if err != nil {
		t.Fatalf("open release-1 data dir: %v", err)
	}
	defer app.Cleanup()
	setup.Register(app)
	srv := httptest.NewServer(testkit.Handler(t, app))
	defer srv.Close()

	// the demo accounts still sign in with their password
	res, err := http.Post(srv.URL+"/api/login", "application/json",
		strings.NewReader(`{"email":"admin@swapbay.local","password":"swapbay-demo"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("login after upgrade: %d", res.StatusCode)
	}
	var cookie string
	for _, c := range res.Cookies() {
		if c.Value != "" {
			cookie = c.Name + "=" + c.Value
		}
	}

	call := func(method, path string) map[string]any {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, nil)
		req.Header.Set("Cookie", cookie)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var body map[string]any
		_ = json.NewDecoder(res.Body).Decode(&body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s %s after upgrade: %d %v", method, path, res.StatusCode, body)
		}
		return body
	}

	// release 1's seed ended at: total 160, ready 152, waiting 0, charging 5, in field 3
	stats, _ := call(http.MethodGet, "/api/state")["stats"].(map[string]any)
	want := map[string]float64{"total": 160, "ready": 152, "waiting": 0, "charging": 5, "inField": 3}
	for k, v := range want {
		if stats[k] != v {
			t.Errorf("stats.%s = %v, want %v (all: %v)", k, stats[k], v, stats)
		}
	}
	for _, p := range []string{"/api/admin/recent-activity", "/api/admin/weekly-activity", "/api/admin/battery-holders", "/api/admin/charging-sessions"} {
		call(http.MethodGet, p)
	}
	// replay of the upgraded ledger equals its cached balances
	rec := call(http.MethodPost, "/api/admin/recalculate-inventory")
	if c, ok := rec["corrections"].([]any); !ok || len(c) > 0 {
		t.Fatalf("recalculation after upgrade: corrections %v", rec["corrections"])
	}
}
