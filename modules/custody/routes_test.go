package custody_test

import (
	"fmt"
	"testing"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/roles"
	"swapbay/modules/activity"
	"swapbay/modules/custody"
	"swapbay/modules/inventory"
	"swapbay/modules/system"
)

type prep = func(testing.TB, *tests.TestApp, testkit.Callers) (string, string)

func expectStats(t testing.TB, app *tests.TestApp, want inventory.Snapshot) {
	t.Helper()
	got, _ := inventory.Stats(app)
	if got != want {
		t.Fatalf("stats: got %+v, want %+v", got, want)
	}
}

// pair seeds two approved drivers a and b holding ha and hb (pickups) and builds the request.
func pair(ha, hb int, build func(a, b *core.Record) (string, string)) prep {
	return func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
		a := ledgertest.NewUser(t, app, roles.Driver)
		b := ledgertest.NewUser(t, app, roles.Driver)
		for u, n := range map[string]int{a.Id: ha, b.Id: hb} {
			if n > 0 {
				if _, err := inventory.Pickup(app, inventory.Op{}, u, n); err != nil {
					t.Fatal(err)
				}
			}
		}
		return build(a, b)
	}
}

var lastPair [2]*core.Record

func TestAssignAPI(t *testing.T) {
	const url = "/api/admin/assignments"
	var target *core.Record
	withTarget := func(body string) prep {
		return func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
			target = ledgertest.NewUser(t, app, roles.Driver)
			return url, fmt.Sprintf(body, target.Id)
		}
	}
	cases := ledgertest.Matrix("assign", "POST", ledgertest.AdminRoute, withTarget(`{"userId":%q,"quantity":4,"assignmentType":"home_charger","notes":"overnight"}`), 200,
		[]string{`"message":"Batteries assigned successfully"`, `"type":"pickup"`, `MANUAL_ASSIGNMENT: 4 batteries (home_charger) assigned to`, `"assignmentType":"home_charger"`, `"balance":4`},
		func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
			if got := ledgertest.Held(t, app, target.Id, "home_charger"); got != 4 {
				t.Fatalf("holder has %d", got)
			}
			expectStats(t, app, inventory.Snapshot{Total: 160, Ready: 156, InField: 4})
		})
	v := func(name string, p prep, status int, msg string) ledgertest.Case {
		return ledgertest.Case{Name: name, Who: testkit.Admin, Method: "POST", Prepare: p, Status: status, Contains: []string{msg}}
	}
	cases = append(cases,
		v("no user", withTarget(`{"quantity":1,"assignmentType":"pickup","x":%q}`), 400, `"message":"Driver is required"`),
		v("no quantity", withTarget(`{"userId":%q,"assignmentType":"pickup"}`), 400, `"message":"Quantity is required"`),
		v("bad type", withTarget(`{"userId":%q,"quantity":1,"assignmentType":"garage"}`), 400, `"message":"Assignment type is required"`),
		v("liaison cannot hold", func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
			return url, fmt.Sprintf(`{"userId":%q,"quantity":1,"assignmentType":"pickup"}`, c.Liaison.Id)
		}, 404, `"message":"Driver not found or not eligible to hold batteries"`),
		v("pending cannot hold", func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
			return url, fmt.Sprintf(`{"userId":%q,"quantity":1,"assignmentType":"pickup"}`, c.Pending.Id)
		}, 404, `"message":"Driver not found or not eligible to hold batteries"`),
		v("more than ready", func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
			if _, err := system.Override(app, inventory.Op{}, 7, 0, 0, 160); err != nil {
				t.Fatal(err)
			}
			return withTarget(`{"userId":%q,"quantity":8,"assignmentType":"storage"}`)(t, app, c)
		}, 409, `"message":"Only 7 batteries available"`),
	)
	ledgertest.Run(t, cases)
}

func TestDeleteAssignmentAPI(t *testing.T) {
	var holderUser string
	// The holder has 6 batteries assigned (moving) and 2 picked up: deleting their
	// assignments moves all 8 to waiting.
	seed := func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
		u := ledgertest.NewUser(t, app, roles.Driver)
		holderUser = u.Id
		if _, _, err := custody.Assign(app, inventory.Op{Actor: c.Admin}, u.Id, 6, "moving"); err != nil {
			t.Fatal(err)
		}
		if _, err := inventory.Pickup(app, inventory.Op{}, u.Id, 2); err != nil {
			t.Fatal(err)
		}
		return "/api/admin/assignments/" + u.Id, ""
	}
	cases := ledgertest.Matrix("delete assignment", "DELETE", ledgertest.AdminRoute, seed, 200,
		[]string{`"message":"Assignment deleted - batteries moved to waiting"`, `"type":"internal_transfer"`},
		func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
			if m, p := ledgertest.Held(t, app, holderUser, "moving"), ledgertest.Held(t, app, holderUser, "pickup"); m != 0 || p != 0 {
				t.Fatalf("moving %d pickup %d, want 0 and 0", m, p)
			}
			expectStats(t, app, inventory.Snapshot{Total: 160, Ready: 152, Waiting: 8, InField: 0})
		})
	cases = append(cases,
		ledgertest.Case{Name: "unknown", Who: testkit.Admin, Method: "DELETE",
			Prepare: func(testing.TB, *tests.TestApp, testkit.Callers) (string, string) {
				return "/api/admin/assignments/nosuchholder12", ""
			},
			Status: 404, Contains: []string{`"message":"Assignment not found"`}},
		// the id GET /api/admin/battery-holders lists for an assignment: only that holding moves
		ledgertest.Case{Name: "an assignment id as the holders list gives it", Who: testkit.Admin, Method: "DELETE",
			Prepare: func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
				u := ledgertest.NewUser(t, app, roles.Driver)
				holderUser = u.Id
				if _, _, err := custody.Assign(app, inventory.Op{Actor: c.Admin}, u.Id, 3, "moving"); err != nil {
					t.Fatal(err)
				}
				if _, err := inventory.Pickup(app, inventory.Op{}, u.Id, 2); err != nil {
					t.Fatal(err)
				}
				groups := activity.GroupHolders(must(activity.Holders(app, u.Id)))
				for _, a := range groups[0].Assignments {
					if a.AssignmentType == "moving" {
						return "/api/admin/assignments/" + a.Id, ""
					}
				}
				t.Fatalf("no moving assignment listed: %+v", groups)
				return "", ""
			}, Status: 200, Contains: []string{`"message":"Assignment deleted - batteries moved to waiting"`},
			Check: func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
				if m, p := ledgertest.Held(t, app, holderUser, "moving"), ledgertest.Held(t, app, holderUser, "pickup"); m != 0 || p != 2 {
					t.Fatalf("moving %d pickup %d, want 0 and 2", m, p)
				}
				expectStats(t, app, inventory.Snapshot{Total: 160, Ready: 155, Waiting: 3, InField: 2})
			}},
		ledgertest.Case{Name: "a movement id is neither", Who: testkit.Admin, Method: "DELETE",
			Prepare: func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
				u := ledgertest.NewUser(t, app, roles.Driver)
				mv, _, err := custody.Assign(app, inventory.Op{Actor: c.Admin}, u.Id, 3, "moving")
				if err != nil {
					t.Fatal(err)
				}
				return "/api/admin/assignments/" + mv.Id, ""
			}, Status: 404, Contains: []string{`"message":"Assignment not found"`},
			Check: func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
				expectStats(t, app, inventory.Snapshot{Total: 160, Ready: 157, InField: 3})
			}},
		ledgertest.Case{Name: "a user holding nothing", Who: testkit.Admin, Method: "DELETE",
			Prepare: func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
				return "/api/admin/assignments/" + ledgertest.NewUser(t, app, roles.Driver).Id, ""
			}, Status: 409, Contains: []string{`"message":"This assignment holds no batteries"`}},
	)
	ledgertest.Run(t, cases)
}

func TestDriverSwapAPI(t *testing.T) {
	const url = "/api/admin/driver-swap"
	swap := func(ha, hb int, body string) prep {
		return pair(ha, hb, func(a, b *core.Record) (string, string) {
			lastPair = [2]*core.Record{a, b}
			return url, fmt.Sprintf(body, a.Id, b.Id)
		})
	}
	cases := ledgertest.Matrix("swap", "POST", ledgertest.AdminRoute, swap(5, 0, `{"fromUserId":%q,"toUserId":%q,"goodBatteries":3,"deadBatteries":0,"notes":"shift change"}`), 200,
		[]string{`"message":"Driver swap recorded successfully"`, `"type":"driver_swap_out"`, `"type":"driver_swap_in"`, `DRIVER_SWAP: 3 good, 0 dead From: `, `"quantity":-3`},
		func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
			a, b := lastPair[0], lastPair[1]
			if ha, hb := ledgertest.Held(t, app, a.Id, "pickup"), ledgertest.Held(t, app, b.Id, "pickup"); ha != 2 || hb != 3 {
				t.Fatalf("after swap a=%d b=%d, want 2 and 3", ha, hb)
			}
			if after := ledgertest.Capture(t, app); after.Stats != before.Stats || after.Movements != before.Movements+2 {
				t.Fatalf("a swap moves nothing in or out of the field: %+v → %+v", before, after)
			}
		})
	v := func(name string, p prep, status int, msg string) ledgertest.Case {
		return ledgertest.Case{Name: name, Who: testkit.Admin, Method: "POST", Prepare: p, Status: status, Contains: []string{msg}}
	}
	cases = append(cases,
		v("no from", swap(5, 0, `{"fromUserId":"","toUserId":%[2]q,"goodBatteries":1}`), 400, `"message":"From driver is required"`),
		v("no to", swap(5, 0, `{"fromUserId":%[1]q,"goodBatteries":1}`), 400, `"message":"To driver is required"`),
		v("same driver", swap(5, 0, `{"fromUserId":%[1]q,"toUserId":%[1]q,"goodBatteries":1}`), 400, `"message":"Cannot swap batteries with the same driver"`),
		v("negative", swap(5, 0, `{"fromUserId":%q,"toUserId":%q,"goodBatteries":-1}`), 400, `"message":"Must be a valid number 0 or greater"`),
		v("nothing to transfer", swap(5, 0, `{"fromUserId":%q,"toUserId":%q,"goodBatteries":"","deadBatteries":0}`), 400, `"message":"Must specify at least some good or dead batteries to transfer"`),
		v("giver holds nothing", swap(0, 3, `{"fromUserId":%q,"toUserId":%q,"goodBatteries":1}`), 409, `"message":"From driver not found or has no batteries"`),
		v("giver unknown", swap(0, 3, `{"fromUserId":"nosuchdriver01","toUserId":%[2]q,"goodBatteries":1}`), 404, `"message":"From driver not found or has no batteries"`),
		v("giver short", pair(2, 0, func(a, b *core.Record) (string, string) {
			return url, fmt.Sprintf(`{"fromUserId":%q,"toUserId":%q,"goodBatteries":2,"deadBatteries":1}`, a.Id, b.Id)
		}), 409, `only has 2 batteries, cannot give 3"`),
		v("dead beyond receiver's holding", swap(5, 1, `{"fromUserId":%q,"toUserId":%q,"goodBatteries":1,"deadBatteries":2}`), 409, `"message":"Dead batteries (2) cannot exceed what `),
		ledgertest.Case{Name: "exchange", Who: testkit.Admin, Method: "POST",
			Prepare: swap(5, 4, `{"fromUserId":%q,"toUserId":%q,"goodBatteries":3,"deadBatteries":1,"isExchange":true,"returnGoodBatteries":2,"returnDeadBatteries":0}`),
			Status:  200, Contains: []string{`"message":"Battery exchange recorded successfully"`, `"return":{`},
			Check: func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
				a, b := lastPair[0], lastPair[1]
				if ha, hb := ledgertest.Held(t, app, a.Id, "pickup"), ledgertest.Held(t, app, b.Id, "pickup"); ha != 3 || hb != 6 {
					t.Fatalf("after exchange a=%d b=%d, want 3 and 6", ha, hb)
				}
			}},
		v("exchange return beyond holding", swap(5, 1, `{"fromUserId":%q,"toUserId":%q,"goodBatteries":1,"isExchange":true,"returnGoodBatteries":3}`), 409, `only has 2 batteries, cannot give 3"`),
	)
	ledgertest.Run(t, cases)
}

func TestDeadTransferAPI(t *testing.T) {
	const url = "/api/admin/dead-battery-transfer"
	tr := func(ha int, body string) prep {
		return pair(ha, 0, func(a, b *core.Record) (string, string) {
			lastPair = [2]*core.Record{a, b}
			return url, fmt.Sprintf(body, a.Id, b.Id)
		})
	}
	cases := ledgertest.Matrix("dead transfer", "POST", ledgertest.AdminRoute, tr(4, `{"fromUserId":%q,"toUserId":%q,"deadBatteries":3,"notes":"to the shop"}`), 200,
		[]string{`"message":"Dead batteries transferred successfully"`, `"deadBatteries":3`, `"kind":"dead_transfer"`},
		func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
			a, b := lastPair[0], lastPair[1]
			if ha, hb := ledgertest.Held(t, app, a.Id, "pickup"), ledgertest.Held(t, app, b.Id, "pickup"); ha != 1 || hb != 3 {
				t.Fatalf("a=%d b=%d, want 1 and 3", ha, hb)
			}
		})
	v := func(name string, p prep, status int, msg string) ledgertest.Case {
		return ledgertest.Case{Name: name, Who: testkit.Admin, Method: "POST", Prepare: p, Status: status, Contains: []string{msg}}
	}
	cases = append(cases,
		v("no from", tr(4, `{"toUserId":%[2]q,"deadBatteries":1}`), 400, `"message":"From driver is required"`),
		v("no to", tr(4, `{"fromUserId":%[1]q,"deadBatteries":1}`), 400, `"message":"To driver is required"`),
		v("zero dead", tr(4, `{"fromUserId":%q,"toUserId":%q,"deadBatteries":0}`), 400, `"message":"Dead batteries must be at least 1"`),
		v("short", tr(2, `{"fromUserId":%q,"toUserId":%q,"deadBatteries":3}`), 409, `only has 2 batteries, cannot give 3"`),
	)
	ledgertest.Run(t, cases)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
