package hq

import (
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/migrate"
	"swapbay/modules/hq"
)

// Creates hq_sessions (one row per signed-in device, the city's auth_sessions: sign-out deletes
// the row and its token is refused at once), city_days and city_weeks (HQ's daily and weekly
// rollups of each city: the overview's finished days and weeks, and history beyond them); rate limits head office's own sign-in route like the
// city's /api/login. Both collections are closed to the record API (no rules).
func init() {
	hq.Migrations.Register(func(app core.App) error {
		users, err := app.FindCollectionByNameOrId(hq.Users)
		if err != nil {
			return err
		}
		if _, err := migrate.CreateBase(app, hq.Sessions, []core.Field{
			&core.RelationField{Name: hq.SessionUser, CollectionId: users.Id, MaxSelect: 1, Required: true, CascadeDelete: true},
			&core.TextField{Name: hq.SessionIP, Max: 100},
			&core.TextField{Name: hq.SessionUserAgent, Max: 500},
			migrate.Created(),
		}, migrate.Index("idx_hq_sessions_user", false, "`"+hq.SessionUser+"`", "")); err != nil {
			return err
		}
		cities, err := app.FindCollectionByNameOrId(hq.Cities)
		if err != nil {
			return err
		}
		if _, err := migrate.CreateBase(app, hq.CityDays, []core.Field{
			&core.RelationField{Name: hq.CityDayCity, CollectionId: cities.Id, MaxSelect: 1, Required: true, CascadeDelete: true},
			&core.TextField{Name: hq.CityDayDay, Required: true, Min: 10, Max: 10},
			&core.NumberField{Name: hq.CityDaySwaps, OnlyInt: true},
			&core.NumberField{Name: hq.CityDayPayCents, OnlyInt: true},
			&core.NumberField{Name: hq.CityDayReady, OnlyInt: true},
			&core.NumberField{Name: hq.CityDayWaiting, OnlyInt: true},
			&core.NumberField{Name: hq.CityDayCharging, OnlyInt: true},
			&core.NumberField{Name: hq.CityDayField, OnlyInt: true},
			&core.NumberField{Name: hq.CityDayQuarantined, OnlyInt: true},
			&core.BoolField{Name: hq.CityDayStockCounted},
			migrate.Created(),
			migrate.Updated(),
		}, migrate.Index("idx_city_days_city_day", true, "`"+hq.CityDayCity+"`, `"+hq.CityDayDay+"`", "")); err != nil {
			return err
		}
		if _, err := migrate.CreateBase(app, hq.CityWeeks, []core.Field{
			&core.RelationField{Name: hq.CityWeekCity, CollectionId: cities.Id, MaxSelect: 1, Required: true, CascadeDelete: true},
			&core.TextField{Name: hq.CityWeekStart, Required: true, Min: 10, Max: 10},
			&core.NumberField{Name: hq.CityWeekPayCents, OnlyInt: true},
			migrate.Created(),
			migrate.Updated(),
		}, migrate.Index("idx_city_weeks_city_week", true, "`"+hq.CityWeekCity+"`, `"+hq.CityWeekStart+"`", "")); err != nil {
			return err
		}
		s := app.Settings()
		s.RateLimits.Rules = append(s.RateLimits.Rules, core.RateLimitRule{Label: "POST /api/hq/auth/login", MaxRequests: 20, Duration: 10})
		return app.Save(s)
	}, migrate.Drop(hq.CityWeeks, hq.CityDays, hq.Sessions))
}
