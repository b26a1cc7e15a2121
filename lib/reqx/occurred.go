package reqx

import (
	"strings"
	"time"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
)

// Bounds of a keyed driver write's occurredAt, the time of the tap (DESIGN.md §12): a few
// minutes of clock skew ahead of the server, a week of offline queue behind it.
const (
	MaxOccurredAhead = 2 * time.Minute
	MaxOccurredAge   = 7 * 24 * time.Hour
)

// Refusals of occurredAt (codes validation_failed, occurred_in_future, too_old).
const (
	MsgOccurredAtInvalid = "occurredAt must be a date and time such as 2026-03-01T09:15:00Z"
	MsgOccurredInFuture  = "The time of this action is in the future: check the phone's clock and send it again"
	MsgOccurredTooOld    = "This action is more than 7 days old and can no longer be sent from the app: ask an admin to record it"
)

// OccurredAt parses a keyed driver write's optional occurredAt field (RFC 3339 with an offset
// or Z) and bounds it against the clock: absent or blank gives the zero time (the store then uses
// the commit time); malformed is a 400 naming occurredAt; more than MaxOccurredAhead ahead
// is refused with code occurred_in_future, more than MaxOccurredAge old with code too_old.
func OccurredAt(raw string) (time.Time, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return time.Time{}, nil
	}
	at, err := time.Parse(time.RFC3339Nano, raw)
	if err != nil {
		return time.Time{}, apierr.Invalid("occurredAt", MsgOccurredAtInvalid)
	}
	now := clock.Now()
	switch {
	case at.After(now.Add(MaxOccurredAhead)):
		return time.Time{}, &apierr.Error{Kind: apierr.ErrInvalid, Field: "occurredAt", Message: MsgOccurredInFuture, Code: apierr.CodeOccurredInFuture}
	case at.Before(now.Add(-MaxOccurredAge)):
		return time.Time{}, &apierr.Error{Kind: apierr.ErrInvalid, Field: "occurredAt", Message: MsgOccurredTooOld, Code: apierr.CodeTooOld}
	}
	return at.UTC(), nil
}
