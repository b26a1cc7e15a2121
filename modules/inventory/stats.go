package inventory

import (
	"slices"
	"strconv"
	"strings"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
	"swapbay/lib/settings"
	"swapbay/lib/sqlitedb"
)

// DefaultTotalBatteries is the fleet size of a fresh install (spec part 2 §9).
const DefaultTotalBatteries = 160

// Messages of the total_batteries setting (spec part 2 §5).
const (
	MsgTotalRequired = "Total batteries is required"
	MsgTotalInvalid  = "Total batteries must be a whole number 0 or greater"
)

// TotalBatteries is the total_batteries setting: the nominal fleet size the ledger's figures
// are compared with (unaccounted = total − counted). The ledger declares it because Stats
// needs it and inventory sits below the system module; the System page edits it like every
// other setting.
var TotalBatteries = settings.Register(settings.Key[int]{
	Name:    schema.SettingTotalBatteries,
	Default: DefaultTotalBatteries,
	Parse:   settings.ParseInt,
	Check: func(name, text string) (string, error) {
		if text == "" {
			return "", apierr.Invalid(name, MsgTotalRequired)
		}
		n := reqx.Digits(text)
		if err := reqx.Count(name, n, 0, reqx.MaxFleet, MsgTotalInvalid, reqx.MsgFleetTooLarge); err != nil {
			return "", err
		}
		return strconv.Itoa(n), nil
	},
})

// Snapshot holds the five battery figures of the dashboard plus the difference between the
// nominal fleet size and what the ledger counts (DESIGN.md §3). (Named Snapshot because Go
// cannot have a type and a function both called Stats.)
type Snapshot struct {
	Total    int `json:"total"`
	Ready    int `json:"ready"`
	Waiting  int `json:"waiting"`
	Charging int `json:"charging"`
	InField  int `json:"inField"`
	// Quarantined are the batteries on the quarantine shelf (out-of-use packs): in the bay,
	// neither ready nor waiting (DESIGN.md §14).
	Quarantined int `json:"quarantined"`
	Unaccounted int `json:"unaccounted"`
}

// Stats reads the figures from the cached account balances: one grouped query over the
// accounts (never the movements or entries) plus the total setting.
func Stats(app core.App) (Snapshot, error) {
	by, total, err := kindSums(app)
	if err != nil {
		return Snapshot{}, err
	}
	s := Snapshot{
		Ready:       by[schema.AccountKindReady],
		Waiting:     by[schema.AccountKindWaiting],
		Charging:    by[schema.AccountKindSession] + by[schema.AccountKindUntracked],
		InField:     by[schema.AccountKindHolder] + by[schema.AccountKindUnassigned],
		Quarantined: by[schema.AccountKindQuarantine],
		Total:       TotalBatteries.Get(total),
	}
	s.Unaccounted = s.Total - (s.Ready + s.Waiting + s.Charging + s.InField + s.Quarantined)
	return s, nil
}

// countedKinds are the account kinds the figures count (outside is not counted).
var countedKinds = map[string]bool{
	schema.AccountKindReady: true, schema.AccountKindWaiting: true, schema.AccountKindSession: true,
	schema.AccountKindUntracked: true, schema.AccountKindHolder: true, schema.AccountKindUnassigned: true,
	schema.AccountKindQuarantine: true,
}

// kindSumsSQL reads the sums of kindSums in one statement. CAST and clamp: a balance damaged
// behind the ledger's back (a float, a huge value) must not make the dashboards fail; the
// figures then show the damage and recalculation or the override repairs it (neither reads
// these sums).
var kindSumsSQL = func() string {
	kinds := make([]string, 0, len(countedKinds))
	for k := range countedKinds {
		kinds = append(kinds, "'"+k+"'")
	}
	slices.Sort(kinds)
	return "SELECT kind, MIN(MAX(CAST(COALESCE(SUM(balance), 0) AS INTEGER), -{:clamp}), {:clamp}) AS s, '' AS t FROM " + schema.Accounts +
		" WHERE kind IN (" + strings.Join(kinds, ", ") + ") AND balance > 0" +
		" GROUP BY kind" +
		" UNION ALL SELECT '', 0, value FROM " + schema.Settings + " WHERE key = {:total}"
}()

// sumsClamp bounds each sum kindSums reads (see kindSumsSQL).
const sumsClamp = 1_000_000_000_000

// kindSums returns the sum of the balances per counted account kind and the stored
// total_batteries setting, in one statement (a write's answer reads them inside its
// transaction). Only the counted kinds and only non-empty accounts are read: one range of
// idx_accounts_kind_balance per kind, so the emptied session accounts a long history leaves
// behind are never scanned (balances other than outside's are never negative).
func kindSums(app core.App) (map[string]int, settings.Values, error) {
	by := make(map[string]int, len(countedKinds))
	total := settings.Values{}
	err := sqlitedb.Query(app.DB(), kindSumsSQL, dbx.Params{"total": TotalBatteries.Name, "clamp": sumsClamp},
		func(scan func(...any) error) error {
			var kind, value string
			var sum int
			if err := scan(&kind, &sum, &value); err != nil {
				return err
			}
			if kind == "" {
				total[TotalBatteries.Name] = value
			} else {
				by[kind] = sum
			}
			return nil
		})
	if err != nil {
		return nil, nil, err
	}
	return by, total, nil
}

// ShiftTotal moves the nominal fleet size (total_batteries) by delta inside txApp's transaction
// (never below 0): batteries that leave the operation for good (packs sent to another city)
// shrink the fleet, those that join it grow it, so nothing shows as unaccounted. It returns the
// total before and after.
func ShiftTotal(txApp core.App, delta int) (before, after int, err error) {
	s, err := Stats(txApp)
	if err != nil {
		return 0, 0, err
	}
	before, after = s.Total, max(0, s.Total+delta)
	if err := settings.Store(txApp, schema.SettingTotalBatteries, strconv.Itoa(after)); err != nil {
		return 0, 0, err
	}
	return before, after, nil
}
