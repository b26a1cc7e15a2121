// Package txutil guards the functions that must run inside a caller's transaction (STYLE.md:
// services own transactions and pass txApp down; nothing below a service opens its own).
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
type Part struct{ discarded atomic.Bool }

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
