package clock_test

import (
	"testing"
	"time"

	"swapbay/lib/clock"
)

func TestWeekStartMondayInZone(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	// Monday 2026-11-23 03:00 UTC is still Sunday 22:00 in New York: the week began Nov 16.
	at := time.Date(2026, 11, 23, 3, 0, 0, 0, time.UTC)
	got := clock.WeekStart(at, ny, 0)
	want := time.Date(2026, 11, 16, 0, 0, 0, 0, ny)
	if !got.Equal(want) {
		t.Fatalf("WeekStart = %v, want %v", got, want)
	}
	if last := clock.WeekStart(at, ny, -1); !last.Equal(time.Date(2026, 11, 9, 0, 0, 0, 0, ny)) {
		t.Fatalf("last week start = %v", last)
	}
	// In UTC the same instant is already in the week of Nov 23.
	if utc := clock.WeekStart(at, time.UTC, 0); !utc.Equal(time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("UTC week start = %v", utc)
	}
	// Sunday itself belongs to the week that started the Monday before.
	sunday := time.Date(2026, 11, 22, 12, 0, 0, 0, ny)
	if got := clock.WeekStart(sunday, ny, 0); !got.Equal(want) {
		t.Fatalf("Sunday week start = %v", got)
	}
}

func TestDaysAcrossDST(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	// DST ended Sunday 2026-11-01 in New York: that day has 25 hours.
	start := clock.WeekStart(time.Date(2026, 11, 1, 12, 0, 0, 0, ny), ny, 0)
	days := clock.Days(start, 7)
	if len(days) != 8 {
		t.Fatalf("len = %d", len(days))
	}
	if d := days[7].Sub(days[6]); d != 25*time.Hour {
		t.Fatalf("Sunday lasts %v, want 25h", d)
	}
	if clock.DateString(days[0]) != "2026-10-26" {
		t.Fatalf("first day %s", clock.DateString(days[0]))
	}
}

func TestDayStartAndLoadLocation(t *testing.T) {
	if clock.LoadLocation("Not/AZone") != time.UTC || clock.LoadLocation("") != time.UTC {
		t.Fatal("unknown zone must fall back to UTC")
	}
	tokyo := clock.LoadLocation("Asia/Tokyo")
	at := time.Date(2026, 11, 21, 16, 0, 0, 0, time.UTC) // 01:00 Nov 22 in Tokyo
	if got := clock.DayStart(at, tokyo); clock.DateString(got) != "2026-11-22" || got.Hour() != 0 {
		t.Fatalf("DayStart = %v", got)
	}
}

func TestLocationForFallsBackToEnv(t *testing.T) {
	t.Setenv(clock.EnvTimeZone, "Asia/Tokyo")
	if got := clock.LocationFor(""); got.String() != "Asia/Tokyo" {
		t.Fatalf("empty setting: %v, want the env zone", got)
	}
	if got := clock.LocationFor("Europe/Paris"); got.String() != "Europe/Paris" {
		t.Fatalf("setting must win over env: %v", got)
	}
}
