package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/schema"
)

// Keeps the time of the driver's tap apart from the time the server recorded it (DESIGN.md
// §12): movements gain recordedAt (the commit; set by the ledger's store, occurredAt staying
// the tap) and photos takenAt (the tap; uploadedAt stays the claim). Existing rows were
// recorded when they occurred: recordedAt takes their created time, takenAt their uploadedAt.
func init() {
	m.Register(func(app core.App) error {
		mv, err := app.FindCollectionByNameOrId(schema.Movements)
		if err != nil {
			return err
		}
		mv.Fields.Add(&core.AutodateField{Name: schema.MovementRecordedAt, OnCreate: true})
		if err := app.Save(mv); err != nil {
			return err
		}
		ph, err := app.FindCollectionByNameOrId(schema.Photos)
		if err != nil {
			return err
		}
		ph.Fields.Add(&core.DateField{Name: schema.PhotoTakenAt})
		if err := app.Save(ph); err != nil {
			return err
		}
		if _, err := app.DB().NewQuery("UPDATE " + schema.Movements + " SET " + schema.MovementRecordedAt + " = created").Execute(); err != nil {
			return err
		}
		_, err = app.DB().NewQuery("UPDATE " + schema.Photos + " SET " + schema.PhotoTakenAt + " = " + schema.PhotoUploadedAt).Execute()
		return err
	}, nil)
}
