// Package migrate holds the shapes pb_migrations repeats: a base collection made from its
// fields and indexes and saved, the created/updated autodate fields, and the down migration
// that drops collections. A migration that has run must keep doing exactly what it did, so
// these helpers only bundle PocketBase's own calls, in the order the migrations made them.
package migrate

import (
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/schema"
)

// IndexSpec is one index of a collection, as core.Collection.AddIndex takes it.
type IndexSpec struct {
	name, columns, where string
	unique               bool
}

// Index returns the index name on columns (backquoted SQL), unique or not, partial when
// where is not "".
func Index(name string, unique bool, columns, where string) IndexSpec {
	return IndexSpec{name: name, unique: unique, columns: columns, where: where}
}

// Created returns the autodate field set when a record is created.
func Created() core.Field {
	return &core.AutodateField{Name: schema.Created, OnCreate: true}
}

// Updated returns the autodate field set when a record is created and on every update.
func Updated() core.Field {
	return &core.AutodateField{Name: schema.Updated, OnCreate: true, OnUpdate: true}
}

// CreateBase makes the base collection name with fields (after the id field) and indexes,
// in that order, and saves it.
func CreateBase(app core.App, name string, fields []core.Field, indexes ...IndexSpec) (*core.Collection, error) {
	c := core.NewBaseCollection(name)
	c.Fields.Add(fields...)
	for _, idx := range indexes {
		c.AddIndex(idx.name, idx.unique, idx.columns, idx.where)
	}
	if err := app.Save(c); err != nil {
		return nil, err
	}
	return c, nil
}

// Drop returns a down migration that deletes the collections names, in that order, each
// only if it exists.
func Drop(names ...string) func(app core.App) error {
	return func(app core.App) error {
		for _, name := range names {
			c, err := app.FindCollectionByNameOrId(name)
			if err != nil {
				continue
			}
			if err := app.Delete(c); err != nil {
				return err
			}
		}
		return nil
	}
}
