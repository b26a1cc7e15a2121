package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/migrate"
)

// Keeps the hash of the request body beside each kept answer (migrate.AddIdempotencyBodyHash):
// a key repeated with another body was answered with the first body's answer and the new
// request silently dropped; it is now refused (409, lib/idempotency).
func init() {
	m.Register(func(app core.App) error { return migrate.AddIdempotencyBodyHash(app) }, nil)
}
