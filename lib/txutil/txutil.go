// Package txutil guards the functions that must run inside a caller's transaction (STYLE.md:
// services own transactions and pass txApp down; nothing below a service opens its own), and
// gives services Modify, the read-edit-save of one record in one transaction.
package txutil

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/pocketbase/pocketbase/core"
)

// ErrNotInTransaction is returned by a function that writes part of a change and was called
// with an app that is not inside a transaction: its writes could commit half a change.
var ErrNotInTransaction = errors.New("must run inside a transaction")

// Require returns an error wrapping ErrNotInTransaction (naming fn) unless txApp is the app of
// a running transaction (the txApp of app.RunInTransaction). Call it first in every function
// whose doc comment says "Call inside a transaction".
func Require(txApp core.App, fn string) error {
	if txApp == nil || !txApp.IsTransactional() {
		return fmt.Errorf("%s: %w", fn, ErrNotInTransaction)
	}
	return nil
}

// Part is one request's share of a write transaction that several requests share
// (lib/idempotency's group commit): it runs between a savepoint and its release, and a part
// refused after it wrote is rolled back to its savepoint and discarded while the transaction
// goes on to commit the other parts. OnCommit callbacks registered while a part runs are
// skipped when that part was discarded.
type Part struct {
	discarded atomic.Bool
}

// Discard marks the part as rolled back: its OnCommit callbacks will not run.
func (p *Part) Discard() { p.discarded.Store(true) }

// Discarded reports whether the part was rolled back.
func (p *Part) Discarded() bool { return p != nil && p.discarded.Load() }

// parts holds the part running in each shared transaction (by its TxAppInfo).
var parts sync.Map

// RunPart runs fn as part p of txApp's transaction: OnCommit callbacks registered by fn belong
// to p. Parts of one transaction run one after another.
func RunPart(txApp core.App, p *Part, fn func() error) error {
	info := txApp.TxInfo()
	if info == nil {
		return fn()
	}
	parts.Store(info, p)
	defer parts.Delete(info)
	return fn()
}

// OnCommit runs fn once app's transaction commits, never if it rolls back or if the part that
// registered it was discarded. Outside a transaction it runs fn at once.
func OnCommit(app core.App, fn func()) {
	info := app.TxInfo()
	if info == nil {
		fn()
		return
	}
	var part *Part
	if p, ok := parts.Load(info); ok {
		part = p.(*Part)
	}
	info.OnComplete(func(txErr error) error {
		if txErr == nil && !part.Discarded() {
			fn()
		}
		return nil
	})
}

// Modify reads a record with find and saves it after edit, both in one transaction of app's,
// and returns it. A save writes every field of the copy it holds, so saving a copy read
// before another change was saved would write that change back. edit returns false to save
// nothing. Slow work (bcrypt, rendering a file) belongs before the call: the transaction
// holds the write lock.
func Modify(app core.App, find func(txApp core.App) (*core.Record, error), edit func(txApp core.App, rec *core.Record) (save bool, err error)) (*core.Record, error) {
	var out *core.Record
	err := app.RunInTransaction(func(txApp core.App) error {
		rec, err := find(txApp)
		if err != nil {
			return err
		}
		save, err := edit(txApp, rec)
		if err != nil {
			return err
		}
		if save {
			if err := txApp.Save(rec); err != nil {
				return err
			}
		}
		out = rec
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
