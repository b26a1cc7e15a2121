package activity

import (
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/roles"
	"swapbay/lib/settings"
	"swapbay/modules/inventory"
	"swapbay/modules/packs"
	"swapbay/modules/system"
)

// Stats are the ledger's battery figures (inventory.Snapshot), with unaccounted shown to
// admins only (DESIGN.md §3): the outer Unaccounted hides the snapshot's in JSON.
type Stats struct {
	inventory.Snapshot
	Unaccounted *int `json:"unaccounted,omitzero"`
}

// Prompts are the driver form prompts of the state's settings.
type Prompts struct {
	DropoffPrompt string `json:"dropoff_prompt"`
	PickupPrompt  string `json:"pickup_prompt"`
	// TimeZone is the operation's IANA zone, in which the UI writes a late action's two times
	// ("done 09:15 · sent 10:42").
	TimeZone string `json:"time_zone"`
	// PackTracking is the pack tracking mode (off, optional, required: DESIGN.md §14): every
	// caller's battery-moving screens show the pack scanner by it, drivers' included.
	PackTracking string `json:"pack_tracking"`
}

// State is the answer of GET /api/state (spec part 1 §3, §7).
type State struct {
	Stats                  Stats         `json:"stats"`
	RecentMovements        []Movement    `json:"recentMovements"`
	ChargingSessions       []Session     `json:"chargingSessions"`
	ActiveBatteryHolders   []Holder      `json:"activeBatteryHolders"`
	InFieldSummary         []InFieldItem `json:"inFieldSummary"`
	DriverDailyActivity    DailyActivity `json:"driverDailyActivity"`
	DriverWeeklyActivity   WeekActivity  `json:"driverWeeklyActivity"`
	DriverLastWeekActivity WeekActivity  `json:"driverLastWeekActivity"`
	Settings               Prompts       `json:"settings"`

	loc *time.Location // the zone the days were cut in
}

// loadStats reads the ledger's figures (inventory.Stats: cached balances and the total).
func loadStats(app core.App) (Stats, error) {
	snap, err := inventory.Stats(app)
	if err != nil {
		return Stats{}, err
	}
	return Stats{Snapshot: snap}, nil
}

// statsFor hides unaccounted from everyone but admins.
func statsFor(s Stats, c Caller) Stats {
	if roles.IsAdmin(c.Role) {
		u := s.Snapshot.Unaccounted
		s.Unaccounted = &u
	} else {
		s.Unaccounted = nil
	}
	return s
}

// BuildState assembles the dashboard state for the caller at now: about six indexed
// queries, none of which grows with the movement history.
func BuildState(app core.App, c Caller, now time.Time) (*State, error) {
	cfg, err := system.Load(app)
	if err != nil {
		return nil, err
	}
	loc := cfg.Location()
	st := &State{loc: loc, Settings: Prompts{
		DropoffPrompt: cfg.DropoffPrompt, PickupPrompt: cfg.PickupPrompt, TimeZone: loc.String(), PackTracking: packs.Tracking.Get(cfg.Values),
	}}

	stats, err := loadStats(app)
	if err != nil {
		return nil, err
	}
	st.Stats = statsFor(stats, c)

	if st.RecentMovements, err = RecentMovements(app, c, RecentLimit); err != nil {
		return nil, err
	}
	if st.ChargingSessions, err = ActiveSessions(app); err != nil {
		return nil, err
	}
	holderOf := ""
	if c.Role == roles.Driver {
		holderOf = c.Id
	}
	if st.ActiveBatteryHolders, err = Holders(app, holderOf); err != nil {
		return nil, err
	}
	st.InFieldSummary = InFieldSummary(st.ActiveBatteryHolders)

	weeks, err := UserTwoWeeks(app, c.Id, now, loc)
	if err != nil {
		return nil, err
	}
	st.DriverDailyActivity = weeks.Today
	st.DriverWeeklyActivity = weeks.ThisWeek
	st.DriverLastWeekActivity = weeks.LastWeek
	return st, nil
}

// Inventory is the answer of GET /api/inventory (spec part 2 §3 "Inventory state").
type Inventory struct {
	Settings settings.Values `json:"settings"` // the stored rows as they are
	Stats    Stats           `json:"stats"`
	Ready    int             `json:"ready"`
	Waiting  int             `json:"waiting"`
	Charging int             `json:"charging"`
	Total    int             `json:"total"`
}

// LoadInventory returns the settings and stats for admins.
func LoadInventory(app core.App) (*Inventory, error) {
	vals, err := settings.Load(app)
	if err != nil {
		return nil, err
	}
	stats, err := loadStats(app)
	if err != nil {
		return nil, err
	}
	stats = statsFor(stats, Caller{Role: roles.Admin})
	return &Inventory{Settings: vals, Stats: stats, Ready: stats.Ready, Waiting: stats.Waiting,
		Charging: stats.Charging, Total: stats.Total}, nil
}
