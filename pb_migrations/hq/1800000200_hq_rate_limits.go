package hq

import (
	"github.com/pocketbase/pocketbase/core"

	"swapbay/modules/hq"
)

// Turns on PocketBase's rate limiter for head office's sign-in (PocketBase's own
// auth-with-password: HQ has none of the city's auth routes) and its other auth actions
// (password reset and OTP requests): the city's "*:auth" rule (DESIGN.md §5).
func init() {
	hq.Migrations.Register(func(app core.App) error {
		s := app.Settings()
		s.RateLimits.Enabled = true
		s.RateLimits.Rules = []core.RateLimitRule{
			{Label: "*:auth", MaxRequests: 2, Duration: 3},
			{Label: "*:create", MaxRequests: 20, Duration: 5},
		}
		return app.Save(s)
	}, nil)
}
