package sessions

import (
	"fmt"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/security"
)

// Restored is what RevokeRestored did: the accounts whose sessions it ended, per auth
// collection (users, _superusers, …), and the session rows it removed.
type Restored struct {
	Accounts map[string]int // by auth collection name
	Sessions int            // rows of the sessions tables removed
}

// RevokeRestored ends every session a restored database brings back (`swapbay restore`, before
// the restored data is put in place). A session token is a JWT signed with its account's token
// key, so a database restored from before a password change, a sign-out everywhere or a
// suspension would accept every token that was valid when the backup was made: every auth
// record (app users and superusers alike: everyone signs in again) gets a new token key, and
// the sessions tables (sessionTables, those app holds) are emptied. One transaction: on an error
// nothing changed.
func RevokeRestored(app core.App, sessionTables ...string) (Restored, error) {
	out := Restored{Accounts: map[string]int{}}
	err := app.RunInTransaction(func(txApp core.App) error {
		cols, err := txApp.FindAllCollections(core.CollectionTypeAuth)
		if err != nil {
			return err
		}
		for _, col := range cols {
			var ids []string
			if err := txApp.DB().Select("id").From(col.Name).Column(&ids); err != nil {
				return fmt.Errorf("read %s: %w", col.Name, err)
			}
			for _, id := range ids {
				// PocketBase's own token key: 50 random characters (crypto/rand), unique
				if _, err := txApp.DB().Update(col.Name, dbx.Params{core.FieldNameTokenKey: security.RandomString(50)},
					dbx.HashExp{"id": id}).Execute(); err != nil {
					return fmt.Errorf("new token key in %s: %w", col.Name, err)
				}
			}
			out.Accounts[col.Name] = len(ids)
		}
		for _, table := range sessionTables {
			if !txApp.HasTable(table) {
				continue
			}
			res, err := txApp.DB().Delete(table, nil).Execute()
			if err != nil {
				return fmt.Errorf("end the sessions of %s: %w", table, err)
			}
			n, _ := res.RowsAffected()
			out.Sessions += int(n)
		}
		return nil
	})
	if err != nil {
		return Restored{}, err
	}
	return out, nil
}
