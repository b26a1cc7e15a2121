package pb_migrations

import (
	"fmt"

	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"
	"github.com/pocketbase/pocketbase/tools/dbutils"

	"swapbay/lib/schema"
)

// Makes the users' unique email index case-insensitive (COLLATE NOCASE), so "A@x.com" and
// "a@x.com" cannot both sign up even when two registrations race. PocketBase's own
// FindAuthRecordByEmail honours the collation too.
func init() {
	m.Register(func(app core.App) error {
		users, err := app.FindCollectionByNameOrId(schema.Users)
		if err != nil {
			return err
		}
		name := "idx_email_" + users.Id
		if idx, ok := dbutils.FindSingleColumnUniqueIndex(users.Indexes, core.FieldNameEmail); ok {
			name = idx.IndexName
			users.RemoveIndex(idx.IndexName)
		}
		users.Indexes = append(users.Indexes, fmt.Sprintf(
			"CREATE UNIQUE INDEX `%s` ON `%s` (`%s` COLLATE NOCASE) WHERE `%s` != ''",
			name, users.Name, core.FieldNameEmail, core.FieldNameEmail,
		))
		return app.Save(users)
	}, nil)
}
