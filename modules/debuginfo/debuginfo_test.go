package debuginfo_test

import (
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"testing"

	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/testkit"
)

func TestDebugInfoByRole(t *testing.T) {
	for _, who := range testkit.AllCallers {
		factory, headers := testkit.As(who, nil)
		status := http.StatusOK
		if who == testkit.Guest {
			status = http.StatusUnauthorized
		}
		admin := who == testkit.Admin || who == testkit.Master
		headers["User-Agent"] = "DebugTest/1.0"
		(&tests.ApiScenario{
			Name: who, Method: http.MethodGet, URL: "/api/debug/info", Headers: headers,
			TestAppFactory: factory, ExpectedStatus: status, ExpectedContent: []string{`"`},
			AfterTestFunc: func(t testing.TB, app *tests.TestApp, res *http.Response) {
				if status != http.StatusOK {
					return
				}
				raw, _ := io.ReadAll(res.Body)
				var info map[string]any
				if err := json.Unmarshal(raw, &info); err != nil {
					t.Fatal(err)
				}
				for _, k := range []string{"serverTime", "timeZone", "localTime", "version", "userId", "role", "approval", "ip"} {
					if info[k] == nil || info[k] == "" {
						t.Errorf("%s: %s missing in %s", who, k, raw)
					}
				}
				if info["userAgent"] != "DebugTest/1.0" || info["timeZone"] != "UTC" {
					t.Errorf("%s: userAgent %v timeZone %v", who, info["userAgent"], info["timeZone"])
				}
				a, hasAdmin := info["admin"].(map[string]any)
				if hasAdmin != admin {
					t.Fatalf("%s: admin part present = %v, want %v (%s)", who, hasAdmin, admin, raw)
				}
				if admin && (a["goVersion"] != runtime.Version() || a["databaseBytes"].(float64) <= 0 || a["socketClients"] == nil || a["jobs"] == nil) {
					t.Errorf("%s: admin part %v", who, a)
				}
				// the replication's status (off in a test app: no replica configured)
				if r, ok := a["replication"].(map[string]any); admin && (!ok || r["enabled"] != false) {
					t.Errorf("%s: replication %v", who, a["replication"])
				}
			},
		}).Test(t)
	}
}
