package hq

import (
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/migrate"
	"swapbay/modules/hq"
)

// Creates cities: the cities head office follows (name, time zone, currency, the replica URL
// with its keys, the city's address and the token it issued for head office). Closed to the
// record API (no rules: superusers only); the keys and the token are hidden fields, never
// answered (modules/hq answers whether they are set).
func init() {
	hq.Migrations.Register(func(app core.App) error {
		_, err := migrate.CreateBase(app, hq.Cities, []core.Field{
			&core.TextField{Name: hq.CityName, Required: true, Max: 100},
			&core.TextField{Name: hq.CityTimeZone, Required: true, Max: 64},
			&core.TextField{Name: hq.CityCurrency, Required: true, Min: 3, Max: 3},
			&core.TextField{Name: hq.CityReplicaURL, Required: true, Max: 2000},
			&core.TextField{Name: hq.CityAccessKeyID, Max: 500, Hidden: true},
			&core.TextField{Name: hq.CitySecretKey, Max: 500, Hidden: true},
			&core.TextField{Name: hq.CityAddress, Required: true, Max: 2000},
			&core.TextField{Name: hq.CityToken, Required: true, Max: 500, Hidden: true},
			&core.TextField{Name: hq.CityUpdatedBy, Max: 100},
			migrate.Created(),
			migrate.Updated(),
		}, migrate.Index("idx_cities_name", true, "lower(`name`)", ""))
		return err
	}, migrate.Drop(hq.Cities))
}
