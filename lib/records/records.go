// Package records is the plumbing every module writes a new PocketBase record with.
package records

import "github.com/pocketbase/pocketbase/core"

// New is an unsaved record of the named collection (found through the app's collection cache).
func New(app core.App, collection string) (*core.Record, error) {
	col, err := app.FindCachedCollectionByNameOrId(collection)
	if err != nil {
		return nil, err
	}
	return core.NewRecord(col), nil
}
