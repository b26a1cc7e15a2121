// Package clock is SwapBay's one clock: every module and lib package reads the time from Now
// (internal/archtest fails on a time.Now outside this package), so a test sets the time for
// all of them at once with Set. It also cuts time the way the swap bay works: days and
// Monday–Sunday weeks in the operation's time zone (DESIGN.md §3), not the server's. It is a
// leaf package.
package clock

import (
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	_ "time/tzdata" // zones work on hosts without /usr/share/zoneinfo

	"github.com/pocketbase/pocketbase/tools/types"
)

// source is what Now reads: nil for the machine's clock, else a test's (Set).
var source atomic.Pointer[func() time.Time]

// Now returns the current time: the machine's, or the time a test Set.
func Now() time.Time {
	if f := source.Load(); f != nil {
		return (*f)()
	}
	return time.Now()
}

// Since returns the time elapsed since t, by Now.
func Since(t time.Time) time.Duration { return Now().Sub(t) }

// Set makes Now return f() for every caller until restore is called (tests: the server as it
// is a week later, a Monday morning). Tests that Set must not run in parallel with each other.
func Set(f func() time.Time) (restore func()) {
	prev := source.Swap(&f)
	return func() { source.Store(prev) }
}

// Deadline returns the machine's time d from now, for a network read or write deadline: the
// kernel's timers run on the machine's clock, so a time a test Set never moves them.
func Deadline(d time.Duration) time.Time { return time.Now().Add(d) }

// EnvTimeZone names the environment variable that gives the time zone when the time_zone
// setting is empty (DESIGN.md §3).
const EnvTimeZone = "SWAPBAY_TZ"

// LocationFor resolves a time_zone setting value: the named zone, else $SWAPBAY_TZ when the
// value is empty, else UTC. An unknown zone name gives UTC rather than failing a read. The
// package never reads the database: callers get the value from the system settings
// (system.Load(app) then Settings.Location(), or system.Location(app)).
func LocationFor(setting string) *time.Location {
	if strings.TrimSpace(setting) == "" {
		setting = os.Getenv(EnvTimeZone)
	}
	return LoadLocation(setting)
}

// zones caches parsed locations: time.LoadLocation reads zone files on every call.
var zones sync.Map

// LoadLocation parses an IANA zone name; empty or unknown names give UTC.
func LoadLocation(name string) *time.Location {
	name = strings.TrimSpace(name)
	if name == "" || name == "UTC" {
		return time.UTC
	}
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		loc = time.UTC
	}
	zones.Store(name, loc)
	return loc
}

// DayStart returns local midnight of the day containing t in loc.
func DayStart(t time.Time, loc *time.Location) time.Time {
	l := t.In(loc)
	return time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, loc)
}

// WeekStart returns local Monday 00:00 of the week containing t in loc, moved by offset
// weeks (0 this week, -1 last week). Weeks run Monday to Sunday (spec part 1 §9).
func WeekStart(t time.Time, loc *time.Location, offset int) time.Time {
	day := DayStart(t, loc)
	back := (int(day.Weekday()) + 6) % 7 // days since Monday
	return time.Date(day.Year(), day.Month(), day.Day()-back+7*offset, 0, 0, 0, 0, loc)
}

// Days returns the n+1 local midnights starting at start: the boundaries of n consecutive
// days. They are computed by calendar, so a day across a DST change is 23 or 25 hours.
func Days(start time.Time, n int) []time.Time {
	out := make([]time.Time, n+1)
	for i := range out {
		out[i] = time.Date(start.Year(), start.Month(), start.Day()+i, 0, 0, 0, 0, start.Location())
	}
	return out
}

// DateString formats a local day as YYYY-MM-DD.
func DateString(t time.Time) string { return t.Format(time.DateOnly) }

// DBText is t as PocketBase stores a date ("2006-01-02 15:04:05.000Z", in UTC); the zero time
// is "", as an unset date field.
func DBText(t time.Time) string {
	d, _ := types.ParseDateTime(t.UTC())
	return d.String()
}
