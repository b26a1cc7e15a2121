package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"
)

// Turns on PocketBase's rate limiter for sign-in and registration (DESIGN.md §5). There is
// no general per-IP rule: a whole bay's phones may share one address, so only the auth
// routes and PocketBase's own auth/create record routes are limited.
func init() {
	m.Register(func(app core.App) error {
		s := app.Settings()
		s.RateLimits.Enabled = true
		s.RateLimits.Rules = []core.RateLimitRule{
			{Label: "POST /api/login", MaxRequests: 20, Duration: 10},
			{Label: "POST /api/register", MaxRequests: 10, Duration: 60},
			{Label: "POST /api/change-password", MaxRequests: 10, Duration: 60},
			{Label: "*:auth", MaxRequests: 2, Duration: 3},
			{Label: "*:create", MaxRequests: 20, Duration: 5},
		}
		return app.Save(s)
	}, nil)
}
