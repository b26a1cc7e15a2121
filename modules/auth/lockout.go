package auth

import (
	"cmp"
	"slices"
	"sync"
	"time"

	"swapbay/lib/clock"
)

// Failed sign-ins are counted per account and source (OWASP ASVS V2.2, NIST 800-63B §5.2.2;
// DESIGN.md §5): a source (the client address, e.RealIP) that failed failureAllowance times on
// an account within failureWindow waits twice as long before each further attempt on it
// (failureBase up to failureMax), answered 429 without checking the password, while the
// account stays open to every other source. Beyond challengeAfter failures on one account
// from all sources within challengeWindow, a correct password is not enough: the owner is
// emailed a one-time code (when SMTP is set; see otp.go), which a guesser does not receive.
// Nothing here ever refuses the right password from a source that has not been failing.
const (
	failureAllowance = 5
	failureWindow    = 15 * time.Minute
	failureBase      = 2 * time.Second
	failureMax       = 15 * time.Minute
	challengeAfter   = 50
	challengeWindow  = time.Hour
	// reportAfter failures from one source on one account put it on the System page.
	reportAfter = 3
	// maxTracked bounds the memory a flood of made-up accounts and addresses can take.
	maxTracked = 100_000
)

// MsgTooManyAttempts answers a sign-in from a source that is cooling down on this account (429).
const MsgTooManyAttempts = "Too many failed sign-in attempts from this device. Please wait a few minutes and try again."

type sourceKey struct{ email, source string }

type failures struct {
	n           int
	first, last time.Time
	until       time.Time
}

// throttle keeps the failure counts by account (normalized email, known or not, so the
// answer does not tell whether an account exists) and by account and source. It is kept in
// memory: a restart forgets it.
type throttle struct {
	mu        sync.Mutex
	bySource  map[sourceKey]*failures
	byAccount map[string]*failures
}

func newThrottle() *throttle {
	return &throttle{bySource: map[sourceKey]*failures{}, byAccount: map[string]*failures{}}
}

// blocked reports whether source must wait before its next attempt on email.
func (t *throttle) blocked(email, source string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	f := t.bySource[sourceKey{email, source}]
	return f != nil && clock.Now().Before(f.until)
}

// challenged reports whether email has failed so often, from all sources, that a correct
// password must be completed by an emailed code.
func (t *throttle) challenged(email string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	f := t.byAccount[email]
	return f != nil && f.n >= challengeAfter && clock.Now().Sub(f.last) <= challengeWindow
}

// count adds one failure at now to the entry of key in m, a fresh entry once window passed.
func count[K comparable](m map[K]*failures, key K, now time.Time, window time.Duration) *failures {
	f := m[key]
	if f == nil || now.Sub(f.last) > window {
		f = &failures{first: now}
		m[key] = f
	}
	f.n++
	f.last = now
	if len(m) > maxTracked {
		for k, v := range m {
			if now.Sub(v.last) > window {
				delete(m, k)
			}
		}
	}
	return f
}

// fail records a failed attempt on email from source.
func (t *throttle) fail(email, source string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := clock.Now()
	f := count(t.bySource, sourceKey{email, source}, now, failureWindow)
	if over := f.n - failureAllowance; over > 0 {
		f.until = now.Add(min(failureBase<<min(over-1, 20), failureMax))
	}
	count(t.byAccount, email, now, challengeWindow)
}

// succeed forgets email's failures from source, and the account's count (the owner is in).
func (t *throttle) succeed(email, source string) {
	t.mu.Lock()
	delete(t.bySource, sourceKey{email, source})
	delete(t.byAccount, email)
	t.mu.Unlock()
}

// FailureReport is one account and source with repeated failed sign-ins (the System page's card).
type FailureReport struct {
	Account string `json:"account"` // the email tried
	Source  string `json:"source"`  // the client address
	Count   int    `json:"count"`
	LastAt  string `json:"lastAt"` // RFC 3339, UTC
	// Slowed says the source is waiting before its next attempt on this account.
	Slowed bool `json:"slowed"`
}

// report returns the sources with at least reportAfter failures on an account within
// failureWindow, the latest first, at most limit.
func (t *throttle) report(limit int) []FailureReport {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := clock.Now()
	out := []FailureReport{}
	for k, f := range t.bySource {
		if f.n >= reportAfter && now.Sub(f.last) <= failureWindow {
			out = append(out, FailureReport{Account: k.email, Source: k.source, Count: f.n,
				LastAt: f.last.UTC().Format(time.RFC3339), Slowed: now.Before(f.until)})
		}
	}
	slices.SortFunc(out, func(a, b FailureReport) int { return cmp.Compare(b.LastAt, a.LastAt) })
	return out[:min(len(out), limit)]
}
