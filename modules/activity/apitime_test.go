package activity

import (
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/tools/types"
)

// apiTime's shortcut for PocketBase's stored UTC text gives what parsing and formatting give.
func TestAPITime(t *testing.T) {
	at := time.Date(2026, 11, 23, 7, 5, 9, 123_000_000, time.UTC)
	stored := at.Format(types.DefaultDateLayout)
	if got, want := apiTime(stored), at.Format("2006-01-02T15:04:05.000Z07:00"); got != want {
		t.Fatalf("apiTime(%q) = %q, want %q", stored, got, want)
	}
	for stored, want := range map[string]string{
		"":                              "",
		"2026-11-23 07:05:09Z":          "2026-11-23T07:05:09.000Z", // parsed: another shape
		"2026-11-23 09:05:09.123+02:00": "2026-11-23T07:05:09.123Z",
	} {
		if got := apiTime(stored); got != want {
			t.Errorf("apiTime(%q) = %q, want %q", stored, got, want)
		}
	}
}
