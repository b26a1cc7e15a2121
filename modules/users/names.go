package users

import (
	"slices"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/schema"
	"swapbay/lib/sqlitedb"
)

// Person is what the feeds show of a user: name, email and role.
type Person struct {
	Id        string `db:"id"`
	FirstName string `db:"firstName"`
	LastName  string `db:"lastName"`
	Email     string `db:"email"`
	Role      string `db:"role"`
}

// Names returns the users of ids that exist, keyed by id, in one query (the feeds name the
// users of many movements at once). A deleted user is absent.
func Names(app core.App, ids []string) (map[string]Person, error) {
	out := make(map[string]Person, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	list := slices.Sorted(slices.Values(ids)) // the same users make the same statement text
	list = slices.Compact(list)
	params := dbx.Params{}
	in := sqlitedb.In(params, "u", list)
	var people []Person
	err := app.DB().NewQuery("SELECT id, " + schema.UserFirstName + ", " + schema.UserLastName + ", email, " + schema.UserRole +
		" FROM " + schema.Users + " WHERE id IN (" + in + ")").Bind(params).All(&people)
	if err != nil {
		return nil, err
	}
	for _, p := range people {
		out[p.Id] = p
	}
	return out, nil
}
