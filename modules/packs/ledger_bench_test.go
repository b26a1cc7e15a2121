package packs_test

import (
	"testing"

	"swapbay/internal/testkit"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
)

// BenchmarkPickupDropoff measures the pack ledger's share of a driver's pickup and dropoff of
// 4 batteries in process (no HTTP): "none" names no packs (tracking optional), "named" names
// its 4 packs. go test ./modules/packs -run '^$' -bench PickupDropoff -cpuprofile cpu.out
func BenchmarkPickupDropoff(b *testing.B) {
	for _, named := range []bool{false, true} {
		name := "none"
		if named {
			name = "named"
		}
		b.Run(name, func(b *testing.B) {
			app := fleet(b, 4, schema.PackTrackingOptional)
			driver := testkit.CreateUser(b, app, roles.Driver, roles.Approved)
			var list []string
			if named {
				list = []string{serial(1), serial(2), serial(3), serial(4)}
			} else {
				list = []string{}
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				op := inventory.Op{Actor: driver, Notes: "Y", Packs: inventory.PackNames{Packs: list}}
				if _, err := inventory.Pickup(app, op, driver.Id, 4); err != nil {
					b.Fatal(err)
				}
				op = inventory.Op{Actor: driver, Notes: "Quiet shift, no issues.", Packs: inventory.PackNames{GoodPacks: list}}
				if _, err := inventory.Dropoff(app, op, driver.Id, 4, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
