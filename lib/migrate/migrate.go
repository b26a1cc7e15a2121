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

// Find finds the collections names, in that order, stopping at the first missing one.
func Find(app core.App, names ...string) ([]*core.Collection, error) {
	out := make([]*core.Collection, len(names))
	for i, name := range names {
		c, err := app.FindCollectionByNameOrId(name)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// AddIndex returns the migration that adds idx to the collection and its down migration,
// which removes it.
func AddIndex(collection string, idx IndexSpec) (up, down func(app core.App) error) {
	up = func(app core.App) error {
		c, err := app.FindCollectionByNameOrId(collection)
		if err != nil {
			return err
		}
		c.AddIndex(idx.name, idx.unique, idx.columns, idx.where)
		return app.Save(c)
	}
	down = func(app core.App) error {
		c, err := app.FindCollectionByNameOrId(collection)
		if err != nil {
			return err
		}
		c.RemoveIndex(idx.name)
		return app.Save(c)
	}
	return up, down
}

// CreateIdempotencyKeys makes the table lib/idempotency keeps keyed writes' answers in
// (DESIGN.md §5), each owned by a user of the users collection usersId: a city and head office
// make the same.
func CreateIdempotencyKeys(app core.App, usersId string) error {
	_, err := CreateBase(app, schema.IdempotencyKeys, []core.Field{
		&core.TextField{Name: schema.IdemKey, Required: true, Max: 200},
		&core.RelationField{Name: schema.IdemUser, CollectionId: usersId, MaxSelect: 1, CascadeDelete: true},
		&core.TextField{Name: schema.IdemMethod, Max: 10},
		&core.TextField{Name: schema.IdemPath, Max: 500},
		&core.NumberField{Name: schema.IdemStatus, OnlyInt: true},
		&core.TextField{Name: schema.IdemBody, Max: 2 << 20},
		Created(),
	},
		Index("idx_idem_user_key", true, "`user`, `key`", ""),
		Index("idx_idem_created", false, "`created`", ""),
	)
	return err
}

// AddIdempotencyBodyHash adds the request body's hash to idempotency_keys (the city's and head
// office's): a key repeated with another body is refused instead of answered with the first
// body's answer (lib/idempotency).
func AddIdempotencyBodyHash(app core.App) error {
	col, err := app.FindCollectionByNameOrId(schema.IdempotencyKeys)
	if err != nil {
		return err
	}
	col.Fields.Add(&core.TextField{Name: schema.IdemBodyHash, Max: 64})
	return app.Save(col)
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
