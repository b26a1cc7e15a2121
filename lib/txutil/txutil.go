// Package txutil guards the functions that must run inside a caller's transaction (STYLE.md:
// services own transactions and pass txApp down; nothing below a service opens its own).
package txutil

import (
	"errors"
	"fmt"

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
