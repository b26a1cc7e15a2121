// Package ratelimit limits the routes whose requests cost memory or CPU to serve (decoding an
// image, rendering a PDF; issue 34, DESIGN.md §5): each such route declares its Limit where
// it is bound, per signed-in account and per client address, and a request over either is
// answered 429 too_many_requests with Retry-After. Every request counts, refused or not: a
// bad image still costs its header read. PocketBase's own limiter keeps covering sign-in and
// registration (pb_migrations/1763700400_enable_rate_limits.go).
package ratelimit

import (
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
)

// MsgTooMany answers a request over a Limit.
const MsgTooMany = "Too many requests. Please wait a moment and try again."

// Rule allows N requests per Window (a fixed window from the first request). N = 0: no limit.
type Rule struct {
	N      int
	Window time.Duration
}

// Limit is one route's limit: per signed-in account and per client address (e.RealIP).
type Limit struct {
	Name       string // the route, e.g. "POST /api/terms/sign"; counts are kept per Name
	PerAccount Rule
	PerIP      Rule
}

// Handler is the middleware that enforces l; bind it on the route after its auth guard.
func (l Limit) Handler() *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{
		Id: "swapbayRateLimit " + l.Name,
		Func: func(e *core.RequestEvent) error {
			if exempt(e) {
				return e.Next()
			}
			c := counters(e.App)
			now := clock.Now()
			wait := c.take(l.Name+" ip "+e.RealIP(), l.PerIP, now)
			if e.Auth != nil {
				wait = max(wait, c.take(l.Name+" account "+e.Auth.Id, l.PerAccount, now))
			}
			if wait > 0 {
				e.Response.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
				return apierr.New(http.StatusTooManyRequests, "", MsgTooMany)
			}
			return e.Next()
		},
	}
}

// exempt reports whether PocketBase's rate limit settings leave e unlimited.
func exempt(e *core.RequestEvent) bool {
	rl := e.App.Settings().RateLimits
	if !rl.Enabled || e.HasSuperuserAuth() {
		return true
	}
	ip := net.ParseIP(e.RealIP())
	for _, x := range rl.ExcludedIPs {
		if _, cidr, err := net.ParseCIDR(x); err == nil && ip != nil && cidr.Contains(ip) {
			return true
		}
		if x == e.RealIP() {
			return true
		}
	}
	return false
}

type window struct {
	start time.Time
	n     int
}

// store holds one app's counts (tests run several apps in one process).
type store struct {
	mu sync.Mutex
	by map[string]*window
}

const storeKey = "swapbay.ratelimit"

// maxKeys bounds the memory a flood of addresses can make the counts take.
const maxKeys = 100_000

func counters(app core.App) *store {
	return app.Store().GetOrSet(storeKey, func() any { return &store{by: map[string]*window{}} }).(*store)
}

// take counts one request on key under r and returns how long to wait when it is over.
func (s *store) take(key string, r Rule, now time.Time) time.Duration {
	if r.N <= 0 {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.by[key]
	if w == nil || now.Sub(w.start) >= r.Window {
		if len(s.by) >= maxKeys {
			for k, v := range s.by {
				if now.Sub(v.start) >= time.Hour {
					delete(s.by, k)
				}
			}
		}
		w = &window{start: now}
		s.by[key] = w
	}
	w.n++
	if w.n > r.N {
		return w.start.Add(r.Window).Sub(now)
	}
	return 0
}
