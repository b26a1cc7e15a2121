package hq

import (
	"context"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/httpx"
	"swapbay/lib/schema"
	"swapbay/modules/hq/follow"
	"swapbay/modules/hq/reads"
)

// MaxPacks bounds a search's answer (and each copy's part of it).
const MaxPacks = 50

// maxQ bounds the raw q (a label URL is longer than its serial).
const maxQ = 2000

var serialRE = regexp.MustCompile(`^[A-Z0-9.-]{3,40}$`)

// SerialQuery is the serial in q as the city stores serials (journal.Serial: a label URL's
// part after /p/, trimmed, in capitals), refused in words unless 3 to 40 of a serial's
// characters (capital letters, digits, dots, dashes).
func SerialQuery(q string) (string, error) {
	if len(q) > maxQ {
		return "", apierr.Invalid("q", MsgQLength)
	}
	code := strings.TrimSpace(q)
	if i := strings.LastIndex(code, "/p/"); i >= 0 {
		code = code[i+3:]
		if j := strings.IndexAny(code, "?#/"); j >= 0 {
			code = code[:j]
		}
	}
	code = strings.ToUpper(strings.TrimSpace(code))
	if n := len([]rune(code)); n < 3 || n > 40 {
		return "", apierr.Invalid("q", MsgQLength)
	}
	if !serialRE.MatchString(code) {
		return "", apierr.Invalid("q", MsgQChars)
	}
	return code, nil
}

// FoundPack is a pack of the search's answer.
type FoundPack struct {
	CityId   string `json:"cityId"`
	CityName string `json:"cityName"`
	reads.Pack
	URL string `json:"url"`
}

// CityRead is a city's part of an answer read from every copy.
type CityRead struct {
	Id    string `json:"id"`
	Name  string `json:"name"`
	Ok    bool   `json:"ok"`
	Error string `json:"error"`
}

// PackSearch is GET /api/hq/packs' answer.
type PackSearch struct {
	Packs  []FoundPack `json:"packs"`
	Cities []CityRead  `json:"cities"`
}

// SearchPacks finds the packs whose serial is serial or starts with it in every copy: at most
// MaxPacks, by serial.
func SearchPacks(ctx context.Context, app core.App, set *follow.Set, serial string) (PackSearch, error) {
	cities, err := cityRefs(app)
	if err != nil {
		return PackSearch{}, err
	}
	found := make([][]reads.Pack, len(cities))
	errs := eachCity(ctx, set, cities, func(ctx context.Context, i int, db *reads.DB) error {
		packs, err := db.SearchPacks(ctx, serial, MaxPacks)
		found[i] = packs
		return err
	})
	out := PackSearch{Packs: []FoundPack{}, Cities: make([]CityRead, len(cities))}
	for i, c := range cities {
		out.Cities[i] = CityRead{Id: c.Id, Name: c.Name, Ok: errs[i] == "", Error: errs[i]}
		for _, p := range found[i] {
			out.Packs = append(out.Packs, FoundPack{CityId: c.Id, CityName: c.Name, Pack: p, URL: c.Address + "/packs/" + p.Serial})
		}
	}
	sort.SliceStable(out.Packs, func(i, j int) bool { return out.Packs[i].Serial < out.Packs[j].Serial })
	if len(out.Packs) > MaxPacks {
		out.Packs = out.Packs[:MaxPacks]
	}
	return out, nil
}

func (h *handlers) packs(e *core.RequestEvent) error {
	serial, err := SerialQuery(e.Request.URL.Query().Get("q"))
	if err != nil {
		return apierr.Response(e, err)
	}
	out, err := SearchPacks(e.Request.Context(), e.App, h.set, serial)
	return httpx.Reply(e, out, err)
}

// TransitRow is a transfer between cities as HQ shows it.
type TransitRow struct {
	FromCityId string   `json:"fromCityId"`
	FromCity   string   `json:"fromCity"`
	Ref        string   `json:"ref"`
	ToCity     string   `json:"toCity"`
	ToCityId   string   `json:"toCityId"` // "" when no city of HQ's has that name or address
	SentAt     string   `json:"sentAt"`
	Serials    []string `json:"serials"`
	Received   []string `json:"received"`
	Pending    []string `json:"pending"`
}

// Transit is GET /api/hq/transit's answer.
type Transit struct {
	Transfers   []TransitRow   `json:"transfers"`
	InTwoCities []TwoCitiesRow `json:"inTwoCities"`
	Cities      []CityRead     `json:"cities"`
}

// TwoCitiesRow is a serial a city received from another city and that more than one city's
// copy counts (DESIGN.md §15: a serial is in service in at most one city). The sender deleted
// its send's movement, or restored a backup from before the send, after the other city had
// received the packs: its stocktake repairs it (a pack not found on its shelves is lost).
type TwoCitiesRow struct {
	Serial           string        `json:"serial"`
	Cities           []CountedPack `json:"cities"`
	ReceivedByCityId string        `json:"receivedByCityId"`
	ReceivedBy       string        `json:"receivedBy"`
	FromCity         string        `json:"fromCity"` // the sender as the receive names it
	Ref              string        `json:"ref"`
}

// CountedPack is a city whose copy counts a serial, and the pack's state there.
type CountedPack struct {
	CityId   string `json:"cityId"`
	CityName string `json:"cityName"`
	State    string `json:"state"`
}

// countedStates are the pack states a city counts as its own: in use (in service, in
// maintenance) or on its quarantine shelf, all in its stock. A pack in transit was sent away
// (the receiving city counts it), a lost one has left the counts (what the sender's stocktake
// makes of a pack it no longer has), and a retired or recycled one has left the fleet for good.
var countedStates = map[string]bool{
	schema.PackStateInService:   true,
	schema.PackStateMaintenance: true,
	schema.PackStateQuarantined: true,
}

// TransitKept is how long a transfer received in full stays in the answer.
const TransitKept = 7 * 24 * time.Hour

// ReadTransit reads every copy's pack_transfers: each out row with the serials received (an in
// row with its ref, in any copy) and those still pending. A transfer with pending packs is
// always listed; one received in full for TransitKept after it was sent. Newest first. Then
// inTwoCities: the serials of the in rows read (at most reads.MaxTransfers per copy) looked up
// in every copy's packs, those counted in more than one, by serial.
func ReadTransit(ctx context.Context, app core.App, set *follow.Set, now time.Time) (Transit, error) {
	cities, err := cityRefs(app)
	if err != nil {
		return Transit{}, err
	}
	rows := make([][]reads.Transfer, len(cities))
	errs := eachCity(ctx, set, cities, func(ctx context.Context, i int, db *reads.DB) error {
		list, err := db.Transfers(ctx)
		rows[i] = list
		return err
	})
	received := receivedSerials(rows)
	cityOf := func(name, address string) string {
		for _, c := range cities {
			if strings.EqualFold(strings.TrimSpace(name), c.Name) || (address != "" && strings.TrimRight(address, "/") == c.Address) {
				return c.Id
			}
		}
		return ""
	}
	out := Transit{Transfers: []TransitRow{}, Cities: make([]CityRead, len(cities))}
	for i, c := range cities {
		out.Cities[i] = CityRead{Id: c.Id, Name: c.Name} // ok and error once every read is done
		for _, t := range rows[i] {
			if t.Direction != "out" {
				continue
			}
			r := TransitRow{FromCityId: c.Id, FromCity: c.Name, Ref: t.Ref, ToCity: t.OtherCity, ToCityId: cityOf(t.OtherCity, t.OtherAddress),
				SentAt: t.At, Serials: t.Serials, Received: []string{}, Pending: []string{}}
			for _, s := range t.Serials {
				if received[t.Ref][s] {
					r.Received = append(r.Received, s)
				} else {
					r.Pending = append(r.Pending, s)
				}
			}
			sent, _ := time.Parse(time.RFC3339, t.At)
			if len(r.Pending) == 0 && now.Sub(sent) > TransitKept {
				continue
			}
			out.Transfers = append(out.Transfers, r)
		}
	}
	sort.SliceStable(out.Transfers, func(i, j int) bool { return out.Transfers[i].SentAt > out.Transfers[j].SentAt })
	out.InTwoCities = countedTwice(ctx, set, cities, rows, errs)
	for i := range out.Cities {
		out.Cities[i].Ok, out.Cities[i].Error = errs[i] == "", errs[i]
	}
	return out, nil
}

// receivedSerials is, per send (its ref), the serials some copy's in rows received (rows: each
// copy's pack_transfers).
func receivedSerials(rows [][]reads.Transfer) map[string]map[string]bool {
	received := map[string]map[string]bool{}
	for _, list := range rows {
		for _, t := range list {
			if t.Direction != "in" {
				continue
			}
			if received[t.Ref] == nil {
				received[t.Ref] = map[string]bool{}
			}
			for _, s := range t.Serials {
				received[t.Ref][s] = true
			}
		}
	}
	return received
}

// receipt is the newest in row that received a serial, and the copy it is in.
type receipt struct {
	city int
	in   reads.Transfer
}

// countedTwice looks the serials of the in rows (rows: each copy's transfers) up in every copy
// readable so far and answers those counted in more than one copy. A copy that cannot be read
// now has its error put in errs and counts nothing.
func countedTwice(ctx context.Context, set *follow.Set, cities []cityRef, rows [][]reads.Transfer, errs []string) []TwoCitiesRow {
	received := map[string]receipt{}
	for i, list := range rows {
		for _, t := range list {
			if t.Direction != "in" {
				continue
			}
			for _, s := range t.Serials {
				if r, ok := received[s]; !ok || t.At > r.in.At {
					received[s] = receipt{city: i, in: t}
				}
			}
		}
	}
	out := []TwoCitiesRow{}
	if len(received) == 0 {
		return out
	}
	serials := slices.Sorted(maps.Keys(received))
	states := make([]map[string]string, len(cities))
	later := eachCity(ctx, set, cities, func(ctx context.Context, i int, db *reads.DB) error {
		if errs[i] != "" {
			return nil // already said
		}
		var err error
		states[i], err = db.PackStates(ctx, serials)
		return err
	})
	for i := range errs {
		if errs[i] == "" {
			errs[i] = later[i]
		}
	}
	for _, s := range serials {
		var counted []CountedPack
		for i, c := range cities {
			if st, ok := states[i][s]; ok && errs[i] == "" && countedStates[st] {
				counted = append(counted, CountedPack{CityId: c.Id, CityName: c.Name, State: st})
			}
		}
		if len(counted) < 2 {
			continue
		}
		r := received[s]
		out = append(out, TwoCitiesRow{Serial: s, Cities: counted, ReceivedByCityId: cities[r.city].Id, ReceivedBy: cities[r.city].Name,
			FromCity: r.in.OtherCity, Ref: r.in.Ref})
	}
	return out
}

func (h *handlers) transit(e *core.RequestEvent) error {
	out, err := ReadTransit(e.Request.Context(), e.App, h.set, clock.Now())
	return httpx.Reply(e, out, err)
}

// Weeks of GET /api/hq/history.
const (
	DefaultHistoryWeeks = 52
	MaxHistoryWeeks     = 260
)

// HistoryWeeks reads ?weeks=: blank is DefaultHistoryWeeks, else a whole number 1..260 written
// in digits (no sign, exponent, spaces or quotes).
func HistoryWeeks(v string) (int, error) {
	if v == "" {
		return DefaultHistoryWeeks, nil
	}
	if len(v) > 3 || strings.TrimLeft(v, "0123456789") != "" {
		return 0, apierr.Invalid("weeks", MsgWeeks)
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > MaxHistoryWeeks {
		return 0, apierr.Invalid("weeks", MsgWeeks)
	}
	return n, nil
}

// HistoryWeek is one Monday week of a city's rollups.
type HistoryWeek struct {
	WeekStart string `json:"weekStart"`
	Swaps     int    `json:"swaps"`
	PayCents  int64  `json:"payCents"`
}

// HistoryCity is a city's weeks.
type HistoryCity struct {
	Id       string        `json:"id"`
	Name     string        `json:"name"`
	Currency string        `json:"currency"`
	Weeks    []HistoryWeek `json:"weeks"`
}

// History is GET /api/hq/history's answer.
type History struct {
	Cities []HistoryCity `json:"cities"`
}

// ReadHistory sums HQ's daily rollups (city_days) by the city's Monday weeks: the n weeks
// ending with this one, oldest first (the current week has the days finished so far).
func ReadHistory(app core.App, n int, now time.Time) (History, error) {
	cities, err := cityRefs(app)
	if err != nil {
		return History{}, err
	}
	out := History{Cities: make([]HistoryCity, 0, len(cities))}
	for _, c := range cities {
		loc := clock.LoadLocation(c.TimeZone)
		first := clock.WeekStart(now, loc, -(n - 1))
		hc := HistoryCity{Id: c.Id, Name: c.Name, Currency: c.Currency, Weeks: make([]HistoryWeek, n)}
		index := map[string]int{}
		for i := range hc.Weeks {
			ws := clock.DateString(first.AddDate(0, 0, 7*i))
			hc.Weeks[i].WeekStart = ws
			index[ws] = i
		}
		var rows []struct {
			Day   string `db:"day"`
			Swaps int    `db:"swaps"`
			Pay   int64  `db:"payCents"`
		}
		err := app.DB().Select(CityDayDay, CityDaySwaps, CityDayPayCents).From(CityDays).
			Where(dbx.HashExp{CityDayCity: c.Id}).AndWhere(dbx.NewExp("[["+CityDayDay+"]] >= {:from}", dbx.Params{"from": clock.DateString(first)})).
			All(&rows)
		if err != nil {
			return History{}, err
		}
		for _, r := range rows {
			d, err := time.ParseInLocation(time.DateOnly, r.Day, loc)
			if err != nil {
				continue
			}
			if i, ok := index[clock.DateString(clock.WeekStart(d, loc, 0))]; ok {
				hc.Weeks[i].Swaps += r.Swaps
				hc.Weeks[i].PayCents += r.Pay
			}
		}
		// a finished week's pay from its weekly rollup (the earnings page's total, adjustments
		// included) when there is one; the sum of its days otherwise (this week: the days so far)
		var weeks []struct {
			Week string `db:"weekStart"`
			Pay  int64  `db:"payCents"`
		}
		err = app.DB().Select(CityWeekStart, CityWeekPayCents).From(CityWeeks).Where(dbx.HashExp{CityWeekCity: c.Id}).
			AndWhere(dbx.NewExp("[["+CityWeekStart+"]] >= {:from}", dbx.Params{"from": clock.DateString(first)})).All(&weeks)
		if err != nil {
			return History{}, err
		}
		for _, w := range weeks {
			if i, ok := index[w.Week]; ok {
				hc.Weeks[i].PayCents = w.Pay
			}
		}
		out.Cities = append(out.Cities, hc)
	}
	return out, nil
}

func (h *handlers) history(e *core.RequestEvent) error {
	n, err := HistoryWeeks(e.Request.URL.Query().Get("weeks"))
	if err != nil {
		return apierr.Response(e, err)
	}
	out, err := ReadHistory(e.App, n, clock.Now())
	return httpx.Reply(e, out, err)
}
