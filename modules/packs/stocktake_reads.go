package packs

import (
	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/schema"
	"swapbay/lib/sqlitedb"
)

// The reads a stocktake's answer names its packs with (modules/stocktake): the places the
// records had them, and the last person a missing pack was with, as the pack pages show them.

// PlacesOf returns the accounts with the given ids as places (labelled as on the pack pages),
// by id; an id no account has is left out.
func PlacesOf(app core.App, ids []string) (map[string]*Place, error) {
	out := map[string]*Place{}
	if len(ids) == 0 {
		return out, nil
	}
	params := dbx.Params{}
	q := "SELECT a.[[id]], " + placeCols("a", "hu", "p") + " FROM {{" + schema.Accounts + "}} a" +
		" LEFT JOIN {{" + schema.Users + "}} hu ON hu.[[id]] = a.[[user]] AND a.[[user]] != ''" +
		" WHERE a.[[id]] IN (" + sqlitedb.In(params, "a", ids) + ")"
	rows, err := app.DB().NewQuery(q).Bind(params).Rows() // quoted names: dbx's rewrite, not sqlitedb.Query
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var r placeRow
		if err := rows.Scan(&id, &r.Key, &r.Kind, &r.Type, &r.User, &r.Name); err != nil {
			return nil, err
		}
		out[id] = r.place()
	}
	return out, rows.Err()
}

// LastHolders reads, for each pack id, the last person a pack event put it with (its holder now
// when a person holds it), in one query.
func LastHolders(app core.App, packIds []string) (map[string]*Person, error) {
	return lastHolders(app, packIds)
}
