package activity_test

import (
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/testkit"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/activity"
	"swapbay/modules/charging"
	"swapbay/modules/inventory"
	"swapbay/modules/terms"
)

// failedAgreement signs the active terms for user and marks the agreement's PDF failed.
func failedAgreement(t testing.TB, app core.App, user *core.Record) {
	t.Helper()
	active, err := terms.FindActive(app)
	if err != nil {
		t.Fatal(err)
	}
	a, err := terms.RecordAgreement(app, terms.Signature{User: user, Terms: active, PNG: []byte("\x89PNG\r\n\x1a\n"),
		Method: terms.SignatureDrawn, IP: "198.51.100.7", UserAgent: "test", SignedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	terms.WaitForPDFs(app) // the after-commit generation ends before the status is overwritten
	rec, err := app.FindRecordById(schema.Agreements, a.Id)
	if err != nil {
		t.Fatal(err)
	}
	rec.Set(schema.AgreementPDFStatus, terms.PDFFailed)
	if err := app.Save(rec); err != nil {
		t.Fatal(err)
	}
}

// The attention strip's counts: due sessions by charging's rule (ETA at or before now, active
// only), pending accounts, failed PDFs.
func TestAttentionCounts(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	c := testkit.SeedCallers(t, app) // one pending driver
	testkit.CreateUser(t, app, roles.Liaison, roles.Pending)
	testkit.CreateUser(t, app, roles.Driver, roles.Suspended)
	now := time.Now()
	waiting := 20
	if err := app.RunInTransaction(func(tx core.App) error {
		_, err := inventory.Adjust(tx, inventory.Op{Actor: c.Admin, At: now.Add(-6 * time.Hour)}, inventory.Targets{Waiting: &waiting}, "Stat edit")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	start := func(ago time.Duration, charger string, qty int) *charging.Session {
		s, _, err := charging.Start(app, inventory.Op{Actor: c.Admin, At: now.Add(-ago)}, charger, qty)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// 4A charges for 180 minutes (the default charger minutes)
	start(4*time.Hour, "4A", 3)          // due an hour ago
	exact := start(3*time.Hour, "4A", 2) // due right now
	start(time.Hour, "4A", 5)            // due in two hours
	done := start(5*time.Hour, "4A", 4)  // due, then completed
	if _, _, err := charging.Complete(app, inventory.Op{Actor: c.Admin}, done.Id); err != nil {
		t.Fatal(err)
	}
	failedAgreement(t, app, c.Driver)

	a, err := activity.AttentionAt(app, exact.EtaAt())
	if err != nil {
		t.Fatal(err)
	}
	want := activity.Attention{ChargingDue: charging.Due{Sessions: 2, Batteries: 5}, PendingApprovals: 2, FailedPDFs: 1}
	if a != want {
		t.Fatalf("attention %+v, want %+v", a, want)
	}
	// a millisecond before the exact ETA, that session is still charging
	if a, _ := activity.AttentionAt(app, exact.EtaAt().Add(-time.Millisecond)); a.ChargingDue != (charging.Due{Sessions: 1, Batteries: 3}) {
		t.Fatalf("before the ETA: %+v, want 1 session of 3", a.ChargingDue)
	}
}

// GET /api/admin/attention is for admins only; an empty system answers zeros.
func TestAttentionAPI(t *testing.T) {
	for _, who := range testkit.AllCallers {
		factory, headers := testkit.As(who, nil)
		s := tests.ApiScenario{Name: who, Method: "GET", URL: "/api/admin/attention", Headers: headers, TestAppFactory: factory}
		switch who {
		case testkit.Guest:
			s.ExpectedStatus, s.ExpectedContent = 401, unauthorized
		case testkit.Pending:
			s.ExpectedStatus, s.ExpectedContent = 403, pending
		case testkit.Driver, testkit.Liaison:
			s.ExpectedStatus, s.ExpectedContent = 403, forbidden
			s.NotExpectedContent = []string{"pendingApprovals"}
		default:
			s.ExpectedStatus = 200
			s.ExpectedContent = []string{`"chargingDue":{"sessions":0,"batteries":0}`, `"pendingApprovals":1`, `"failedPdfs":0`}
		}
		s.Test(t)
	}
}
