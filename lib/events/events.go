// Package events carries SwapBay's realtime notifications from the services that commit a
// change to the realtime hub that pushes them over /ws. Services call Publish(txApp, ...) inside
// their transaction; the message goes out only if the transaction commits.
package events

import (
	"sync"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/txutil"
)

// The realtime message types of spec part 1 §7.
const (
	InventoryUpdated  = "INVENTORY_UPDATED"
	ActivityUpdated   = "ACTIVITY_UPDATED"
	ChargingUpdated   = "CHARGING_UPDATED"
	EmergencyOverride = "EMERGENCY_OVERRIDE"
)

// EarningsUpdated (ours) says pay figures changed without a movement: pay rates, a pay
// reduction, a pool withholding or a task adjustment. Open earnings panels refetch.
const EarningsUpdated = "EARNINGS_UPDATED"

// SessionsRevoked is an internal message (not sent to browsers): the realtime hub closes the
// sockets of the sessions its Data (a Revocation) names.
const SessionsRevoked = "SESSIONS_REVOKED"

// SettingsSaved is an internal message (not sent to browsers): settings were saved; its Data
// (a SettingsChange) names the keys. Modules that act on a setting (the backup cron's time
// zone) subscribe to it instead of hooking the settings table.
const SettingsSaved = "SETTINGS_SAVED"

// SettingsChange names the settings keys a save wrote.
type SettingsChange struct {
	Keys []string
}

// Internal reports whether messages of type t stay on the server (the realtime hub does not
// send them to browsers).
func Internal(t string) bool { return t == SessionsRevoked || t == SettingsSaved }

// Revocation names the sessions that ended: one session of a user, or all of them when
// SessionId is empty.
type Revocation struct {
	UserId    string
	SessionId string
}

// Message is one realtime notification, sent to clients as JSON.
type Message struct {
	Type string `json:"type"`
	Data any    `json:"data,omitempty"`
}

// Bus fans messages out to subscribers. The zero value is ready to use.
type Bus struct {
	mu   sync.RWMutex
	subs map[int]func(Message)
	next int
}

// Subscribe registers fn to receive every published message and returns a cancel function.
// fn must not block: the realtime hub queues and drops on its own side.
func (b *Bus) Subscribe(fn func(Message)) (cancel func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.subs == nil {
		b.subs = map[int]func(Message){}
	}
	id := b.next
	b.next++
	b.subs[id] = fn
	return func() {
		b.mu.Lock()
		delete(b.subs, id)
		b.mu.Unlock()
	}
}

// Publish delivers msg to every subscriber now.
func (b *Bus) Publish(msg Message) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, fn := range b.subs {
		fn(msg)
	}
}

// storeKey is where an app keeps its bus (app.Store() is shared by the app and its
// transaction apps, so For(txApp) finds the same bus).
const storeKey = "swapbay.events.bus"

// For returns the bus of app (one per app instance, so parallel tests do not cross-talk).
// Pass the outer app or a txApp: both share the app's store.
func For(app core.App) *Bus {
	return app.Store().GetOrSet(storeKey, func() any { return &Bus{} }).(*Bus)
}

// Publish sends one message per type on app's bus once app's transaction commits, and never
// if it rolls back. Outside a transaction it sends at once. Every module publishes this way.
func Publish(app core.App, types ...string) {
	msgs := make([]Message, len(types))
	for i, t := range types {
		msgs[i] = Message{Type: t}
	}
	Send(app, msgs...)
}

// Send is Publish for messages with data: after app's transaction commits (at once outside
// one), each message goes to every subscriber of app's bus; not when the request's part of a
// shared transaction was rolled back (txutil.Part).
func Send(app core.App, msgs ...Message) {
	send := func() {
		bus := For(app)
		for _, m := range msgs {
			bus.Publish(m)
		}
	}
	txutil.OnCommit(app, send)
}
