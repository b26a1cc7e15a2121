package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/schema"
)

// Makes photos outlive their uploader's account, as signed agreements do (1765100000): a photo of
// a broken scooter, or of a damaged pack on its incident report, is the operation's evidence, and
// deleting a driver deleted theirs with their files. Deleting a user now clears the photo's
// uploadedBy, and the uploader's name and email are kept on the photo (photos.KeepFormerUploader).
func init() {
	m.Register(func(app core.App) error {
		col, err := app.FindCollectionByNameOrId(schema.Photos)
		if err != nil {
			return err
		}
		if f, ok := col.Fields.GetByName(schema.PhotoUploadedBy).(*core.RelationField); ok {
			f.CascadeDelete = false
			f.Required = false
		}
		col.Fields.Add(
			&core.TextField{Name: schema.PhotoUploaderFirstName, Max: 100},
			&core.TextField{Name: schema.PhotoUploaderLastName, Max: 100},
			&core.EmailField{Name: schema.PhotoUploaderEmail},
		)
		return app.Save(col)
	}, nil)
}
