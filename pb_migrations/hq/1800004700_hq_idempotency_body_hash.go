package hq

import (
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/migrate"
	"swapbay/modules/hq"
)

// Head office's idempotency_keys keep the request body's hash too, as the city's do (migration
// 1766600100): a key repeated with another body is refused.
func init() {
	hq.Migrations.Register(func(app core.App) error { return migrate.AddIdempotencyBodyHash(app) }, nil)
}
