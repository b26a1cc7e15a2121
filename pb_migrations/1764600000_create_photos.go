package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/migrate"
	"swapbay/lib/schema"
)

// Creates the photos collection (DESIGN.md §9): a protected image file with PocketBase
// thumbnails, its uploader, notes and SHA-256. No API rules: only SwapBay's routes reach it.
func init() {
	m.Register(func(app core.App) error {
		users, err := app.FindCollectionByNameOrId(schema.Users)
		if err != nil {
			return err
		}
		_, err = migrate.CreateBase(app, schema.Photos, []core.Field{
			&core.FileField{Name: schema.PhotoFile, MaxSelect: 1, MaxSize: 10 << 20, Protected: true,
				MimeTypes: []string{"image/jpeg", "image/png", "image/webp"}, Thumbs: []string{schema.PhotoThumb}},
			&core.TextField{Name: schema.PhotoFilename, Max: 255},
			&core.TextField{Name: schema.PhotoNotes, Max: 2000},
			&core.RelationField{Name: schema.PhotoUploadedBy, CollectionId: users.Id, MaxSelect: 1, Required: true, CascadeDelete: true},
			&core.DateField{Name: schema.PhotoUploadedAt},
			&core.TextField{Name: schema.PhotoSHA256, Max: 64},
			&core.TextField{Name: schema.PhotoDuplicateOf, Max: 15},
			&core.TextField{Name: schema.PhotoContentType, Max: 50},
			&core.BoolField{Name: schema.PhotoClaimed},
			migrate.Created(),
			migrate.Updated(),
		},
			migrate.Index("idx_photos_sha256", false, "`sha256`", ""),
			migrate.Index("idx_photos_claimed_created", false, "`claimed`, `created`", ""),
		)
		return err
	}, migrate.Drop(schema.Photos))
}
