package inventory_test

import (
	"testing"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/charging"
	"swapbay/modules/custody"
	"swapbay/modules/inventory"
	"swapbay/modules/system"
)

// The admin corrections of recorded movements: PUT and DELETE /api/admin/movements/{id}
// (moved here from modules/system with their routes).

type prep = func(testing.TB, *tests.TestApp, testkit.Callers) (string, string)

var driverX *core.Record

// withDriver creates driverX holding `held` batteries (a pickup) and builds the request from
// the pickup movement.
func withDriver(held int, build func(t testing.TB, app *tests.TestApp, c testkit.Callers, pickup *inventory.Movement) (string, string)) prep {
	return func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
		var mv *inventory.Movement
		driverX, mv = ledgertest.PickupBy(t, app, held)
		return build(t, app, c, mv)
	}
}

func movementURL(mv *inventory.Movement) string { return "/api/admin/movements/" + mv.Id }

func TestEditMovementAPI(t *testing.T) {
	editPickup := withDriver(5, func(t testing.TB, app *tests.TestApp, c testkit.Callers, mv *inventory.Movement) (string, string) {
		return movementURL(mv), `{"goodBatteries":3,"deadBatteries":0,"notes":"counted again"}`
	})
	cases := ledgertest.Matrix("edit pickup", "PUT", ledgertest.AdminRoute, editPickup, 200,
		[]string{`"message":"The movement has been corrected successfully."`, `"quantity":-3`, `"notes":"counted again"`},
		func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
			if h := ledgertest.Held(t, app, driverX.Id, "pickup"); h != 3 {
				t.Fatalf("holder %d, want 3", h)
			}
			expectStats(t, app, inventory.Snapshot{Total: 160, Ready: 157, InField: 3})
		})
	row := func(name string, p prep, status int, msg string, check func(t testing.TB, app *tests.TestApp)) ledgertest.Case {
		c := ledgertest.Case{Name: name, Who: testkit.Admin, Method: "PUT", Prepare: p, Status: status, Contains: []string{msg}}
		if check != nil {
			c.Check = func(t testing.TB, app *tests.TestApp, _ ledgertest.State, _ map[string]any) { check(t, app) }
		}
		return c
	}
	cases = append(cases,
		row("edit dropoff", withDriver(10, func(t testing.TB, app *tests.TestApp, c testkit.Callers, _ *inventory.Movement) (string, string) {
			d := ledgertest.Must(inventory.Dropoff(app, inventory.Op{}, driverX.Id, 4, 2))(t)
			return movementURL(d), `{"goodBatteries":5,"deadBatteries":0}`
		}), 200, `"notes":"5 good, 0 dead"`, func(t testing.TB, app *tests.TestApp) {
			if h := ledgertest.Held(t, app, driverX.Id, "pickup"); h != 5 {
				t.Fatalf("holder %d, want 5", h)
			}
			expectStats(t, app, inventory.Snapshot{Total: 160, Ready: 155, Waiting: 0, InField: 5})
		}),
		row("edit swap through its in half", withDriver(5, func(t testing.TB, app *tests.TestApp, c testkit.Callers, _ *inventory.Movement) (string, string) {
			b := ledgertest.NewUser(t, app, roles.Driver)
			p := ledgertest.Must(custody.Swap(app, inventory.Op{Actor: c.Admin}, custody.SwapRequest{FromUserId: driverX.Id, ToUserId: b.Id, Good: 3}))(t)
			return movementURL(p.Transfer.In), `{"goodBatteries":1,"deadBatteries":0}`
		}), 200, `"type":"driver_swap_in"`, func(t testing.TB, app *tests.TestApp) {
			if h := ledgertest.Held(t, app, driverX.Id, "pickup"); h != 4 {
				t.Fatalf("giver %d, want 4", h)
			}
			if n := ledgertest.MovementsOfType(t, app, "driver_swap_out"); n != 1 {
				t.Fatalf("%d swap_out movements", n)
			}
		}),
		row("edit adjustment", func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
			mv := ledgertest.Must(system.EditStat(app, inventory.Op{Actor: c.Admin}, "ready", 150, 160))(t)
			return movementURL(mv), `{"goodBatteries":4}`
		}, 200, `"quantity":-4`, func(t testing.TB, app *tests.TestApp) {
			expectStats(t, app, inventory.Snapshot{Total: 160, Ready: 156, Unaccounted: 4})
		}),
		row("zero total", editPickupWith(`{"goodBatteries":0,"deadBatteries":0}`), 400, `"message":"Total batteries must be greater than 0"`, nil),
		row("text counts fall back to 0", editPickupWith(`{"goodBatteries":"x","deadBatteries":"y"}`), 400, `"message":"Total batteries must be greater than 0"`, nil),
		row("unknown", fixed("/api/admin/movements/nosuchmovemen1", `{"goodBatteries":1}`), 404, `"message":"Movement not found"`, nil),
		row("not editable", withDriver(1, func(t testing.TB, app *tests.TestApp, c testkit.Callers, _ *inventory.Movement) (string, string) {
			mv := ledgertest.Must(inventory.LogActivity(app, inventory.Op{}, driverX.Id, inventory.TypeRebalance, 3))(t)
			return movementURL(mv), `{"goodBatteries":1}`
		}), 409, `"message":"Only pickup, dropoff, driver swap and adjustment movements can be edited"`, nil),
		row("raise beyond ready", withDriver(5, func(t testing.TB, app *tests.TestApp, c testkit.Callers, mv *inventory.Movement) (string, string) {
			ledgertest.Must(system.EditStat(app, inventory.Op{}, "ready", 2, 155))(t)
			return movementURL(mv), `{"goodBatteries":8}`
		}), 409, `"message":"Not enough batteries: only 2 ready"`, nil),
		row("lower after the batteries moved on", withDriver(5, func(t testing.TB, app *tests.TestApp, c testkit.Callers, mv *inventory.Movement) (string, string) {
			ledgertest.Must(inventory.Dropoff(app, inventory.Op{}, driverX.Id, 5, 0))(t)
			return movementURL(mv), `{"goodBatteries":1}`
		}), 409, `only has 0 batteries, cannot give 4"`, nil),
	)
	ledgertest.Run(t, cases)
}

func editPickupWith(body string) prep {
	return withDriver(5, func(t testing.TB, app *tests.TestApp, c testkit.Callers, mv *inventory.Movement) (string, string) {
		return movementURL(mv), body
	})
}

func TestDeleteMovementAPI(t *testing.T) {
	del := withDriver(5, func(t testing.TB, app *tests.TestApp, c testkit.Callers, mv *inventory.Movement) (string, string) {
		return movementURL(mv), ""
	})
	cases := ledgertest.Matrix("delete pickup", "DELETE", ledgertest.AdminRoute, del, 200,
		[]string{`"message":"The movement has been deleted and batteries returned."`},
		func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
			expectStats(t, app, inventory.Snapshot{Total: 160, Ready: 160})
			if after := ledgertest.Capture(t, app); after.Movements != before.Movements-1 {
				t.Fatalf("movements %d → %d", before.Movements, after.Movements)
			}
		})
	row := func(name string, p prep, status int, msg string, check func(t testing.TB, app *tests.TestApp)) ledgertest.Case {
		c := ledgertest.Case{Name: name, Who: testkit.Admin, Method: "DELETE", Prepare: p, Status: status, Contains: []string{msg}}
		if check != nil {
			c.Check = func(t testing.TB, app *tests.TestApp, _ ledgertest.State, _ map[string]any) { check(t, app) }
		}
		return c
	}
	cases = append(cases,
		row("dropoff returns batteries to the holder", withDriver(5, func(t testing.TB, app *tests.TestApp, c testkit.Callers, _ *inventory.Movement) (string, string) {
			return movementURL(ledgertest.Must(inventory.Dropoff(app, inventory.Op{}, driverX.Id, 2, 1))(t)), ""
		}), 200, `"success":true`, func(t testing.TB, app *tests.TestApp) {
			if h := ledgertest.Held(t, app, driverX.Id, "pickup"); h != 5 {
				t.Fatalf("holder %d, want 5", h)
			}
			expectStats(t, app, inventory.Snapshot{Total: 160, Ready: 155, InField: 5})
		}),
		row("swap goes with its pair", withDriver(5, func(t testing.TB, app *tests.TestApp, c testkit.Callers, _ *inventory.Movement) (string, string) {
			b := ledgertest.NewUser(t, app, roles.Driver)
			p := ledgertest.Must(custody.Swap(app, inventory.Op{}, custody.SwapRequest{FromUserId: driverX.Id, ToUserId: b.Id, Good: 2}))(t)
			return movementURL(p.Transfer.Out), ""
		}), 200, `"success":true`, func(t testing.TB, app *tests.TestApp) {
			if n := ledgertest.MovementsOfType(t, app, "driver_swap_in") + ledgertest.MovementsOfType(t, app, "driver_swap_out"); n != 0 {
				t.Fatalf("%d swap halves left", n)
			}
			if h := ledgertest.Held(t, app, driverX.Id, "pickup"); h != 5 {
				t.Fatalf("giver %d, want 5", h)
			}
		}),
		row("batteries moved on", withDriver(5, func(t testing.TB, app *tests.TestApp, c testkit.Callers, mv *inventory.Movement) (string, string) {
			ledgertest.Must(inventory.Dropoff(app, inventory.Op{}, driverX.Id, 5, 0))(t)
			return movementURL(mv), ""
		}), 409, `"message":"Cannot delete this movement: its batteries have already moved on`, nil),
		row("checkpoint", func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
			rec, err := app.FindFirstRecordByData(schema.Movements, schema.MovementCheckpoint, true)
			if err != nil {
				t.Fatal(err)
			}
			return "/api/admin/movements/" + rec.Id, ""
		}, 409, `"message":"Checkpoint movements cannot be deleted"`, nil),
		row("charging movement", func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
			ledgertest.Must(system.EditStat(app, inventory.Op{}, "ready", 155, 160))(t)
			ledgertest.Must(system.EditStat(app, inventory.Op{}, "waiting", 5, 0))(t)
			_, mv, err := charging.Start(app, inventory.Op{Actor: c.Admin}, "4A", 5)
			if err != nil {
				t.Fatal(err)
			}
			return movementURL(mv), ""
		}, 409, `"message":"Charging session movements cannot be deleted here`, nil),
		row("unknown", fixed("/api/admin/movements/nosuchmovemen1", ""), 404, `"message":"Movement not found"`, nil),
	)
	ledgertest.Run(t, cases)
}
