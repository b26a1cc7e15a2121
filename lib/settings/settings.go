// Package settings is the typed access to the operator settings table (one row per key; spec
// part 2 §3). The system module owns the table, its admin API (POST /api/admin/settings) and
// system.Load; each module declares the keys it owns as package-level Key values made by
// Register, so adding a key never edits a switch:
//
//	// BackupKeep is how many backups are kept.
//	var BackupKeep = settings.Register(settings.Key[int]{
//		Name: "backup_keep", Default: 7, Parse: settings.ParseInt,
//		Check: settings.CheckInt(0, 365, "Backups to keep must be a whole number from 0 to 365"),
//	})
//
//	keep, err := BackupKeep.Read(app)            // one key, one query
//	vals, err := settings.Load(app); BackupKeep.Get(vals) // several keys, one query
//
// A database error is returned, never hidden behind a default. A missing row reads as the
// key's Default; so does stored text Parse refuses (it can only come from a hand edit in the
// /_/ dashboard, since the admin API checks every value before storing it).
//
// The package is a leaf (it imports lib/schema, lib/records and lib/events only) so that modules
// below system, such as the inventory ledger's fleet size, can declare, read and store their
// keys too.
package settings

import (
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/events"
	"swapbay/lib/records"
	"swapbay/lib/schema"
)

// Key is one setting of type T: its name, its default and how its text is parsed and checked.
type Key[T any] struct {
	// Name is the settings row key, e.g. "total_batteries".
	Name string
	// Default is the value when the row is missing or its text does not parse.
	Default T
	// Parse turns the stored text (already trimmed) into the value.
	Parse func(text string) (T, error)
	// Check validates an admin's input (trimmed text; JSON numbers as written, null as "")
	// and returns the text to store. Its error is the API answer (an apierr.Invalid on the
	// key's name). Nil accepts any text.
	Check func(name, text string) (string, error)
	// KeepWhenBlank makes a blank input leave the stored value as it is (a form that sends a
	// blank field means "no change").
	KeepWhenBlank bool
	// MasterOnly makes the key a master admin's to change (an admin's request is a 403).
	MasterOnly bool
}

// Get returns k's value in vals: the parsed stored text, else Default.
func (k Key[T]) Get(vals Values) T {
	text, ok := vals[k.Name]
	if !ok {
		return k.Default
	}
	v, err := k.Parse(strings.TrimSpace(text))
	if err != nil {
		return k.Default
	}
	return v
}

// Read loads k alone (one indexed query). A database error is returned as is.
func (k Key[T]) Read(app core.App) (T, error) {
	var text string
	err := app.DB().Select(schema.SettingValue).From(schema.Settings).
		Where(dbx.HashExp{schema.SettingKey: k.Name}).Limit(1).Row(&text)
	if errors.Is(err, sql.ErrNoRows) {
		return k.Default, nil
	}
	if err != nil {
		var zero T
		return zero, fmt.Errorf("read setting %s: %w", k.Name, err)
	}
	return k.Get(Values{k.Name: text}), nil
}

// Spec is the untyped part of a registered key, what the admin API needs to store it.
type Spec struct {
	Name          string
	Check         func(name, text string) (string, error)
	KeepWhenBlank bool
	MasterOnly    bool
}

var (
	mu       sync.RWMutex
	registry = map[string]Spec{}
)

// Register records k as a known setting (the admin API refuses unknown keys) and returns it.
// Call it in a package-level var declaration; registering one name twice panics, since two
// modules would then disagree on what the key means.
func Register[T any](k Key[T]) Key[T] {
	if k.Name == "" || k.Parse == nil {
		panic("settings: a key needs a Name and a Parse")
	}
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[k.Name]; dup {
		panic("settings: key registered twice: " + k.Name)
	}
	registry[k.Name] = Spec{Name: k.Name, Check: k.Check, KeepWhenBlank: k.KeepWhenBlank, MasterOnly: k.MasterOnly}
	return k
}

// Lookup returns the registered key called name.
func Lookup(name string) (Spec, bool) {
	mu.RLock()
	defer mu.RUnlock()
	s, ok := registry[name]
	return s, ok
}

// Values are the stored settings rows, key → text as stored. Its JSON is the raw map the
// admin inventory answer carries.
type Values map[string]string

// Store writes text as key's row (creating it the first time) inside the caller's transaction
// and tells the open screens after the commit (events.SettingsSaved). It stores what it is
// given: callers check the value first (system.SaveSettings through the key's Check).
func Store(txApp core.App, key, text string) error {
	rec, err := txApp.FindFirstRecordByData(schema.Settings, schema.SettingKey, key)
	if err != nil {
		if rec, err = records.New(txApp, schema.Settings); err != nil {
			return err
		}
		rec.Set(schema.SettingKey, key)
	}
	rec.Set(schema.SettingValue, text)
	if err := txApp.Save(rec); err != nil {
		return err
	}
	events.Send(txApp, events.Message{Type: events.SettingsSaved, Data: events.SettingsChange{Keys: []string{key}}})
	return nil
}

// Load reads every settings row (one query over a handful of rows).
func Load(app core.App) (Values, error) {
	var rows []struct {
		Key   string `db:"key"`
		Value string `db:"value"`
	}
	if err := app.DB().Select(schema.SettingKey, schema.SettingValue).From(schema.Settings).All(&rows); err != nil {
		return nil, fmt.Errorf("load settings: %w", err)
	}
	out := make(Values, len(rows))
	for _, r := range rows {
		out[r.Key] = r.Value
	}
	return out, nil
}

// ParseInt parses a whole number.
func ParseInt(text string) (int, error) { return strconv.Atoi(text) }

// ParseText returns the text as is.
func ParseText(text string) (string, error) { return text, nil }
