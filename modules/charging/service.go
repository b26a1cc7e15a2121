package charging

import (
	"fmt"
	"math"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/events"
	"swapbay/lib/records"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
	"swapbay/lib/settings"
	"swapbay/lib/sqlitedb"
	"swapbay/lib/txutil"
	"swapbay/modules/health"
	"swapbay/modules/inventory"
)

// Messages of the charging forms (spec part 2 §4).
const (
	MsgChargerTypeRequired = "Charger type is required"
	MsgQuantityNegative    = "Quantity must be 0 or greater"
	MsgDestination         = "Destination must be ready or waiting"
)

// ChargerTypes are the charger types of spec part 1 §9.
var ChargerTypes = []string{"2.5A", "4A", "5A"}

// Session is a typed proxy of a charging_sessions record. Its quantity always equals the
// balance of its ledger account while it is active.
type Session struct{ *core.Record }

// Quantity is the number of batteries on the chargers.
func (s *Session) Quantity() int { return s.GetInt(schema.SessionQuantity) }

// ChargerType is 2.5A, 4A or 5A.
func (s *Session) ChargerType() string { return s.GetString(schema.SessionChargerType) }

// Status is active, completed or deleted.
func (s *Session) Status() string { return s.GetString(schema.SessionStatus) }

// StartedAt is when charging began.
func (s *Session) StartedAt() time.Time { return s.GetDateTime(schema.SessionStartedAt).Time() }

// EtaAt is when the batteries will be ready.
func (s *Session) EtaAt() time.Time { return s.GetDateTime(schema.SessionEtaAt).Time() }

// FindSession returns the session with id, or an apierr.ErrNotFound refusal.
func FindSession(app core.App, id string) (*Session, error) {
	rec, err := app.FindRecordById(schema.ChargingSessions, id)
	if err != nil {
		return nil, apierr.NotFound("Charging session not found")
	}
	return &Session{rec}, nil
}

// IsChargerType reports whether t is a known charger type.
func IsChargerType(t string) bool {
	for _, c := range ChargerTypes {
		if c == t {
			return true
		}
	}
	return false
}

// sessionEvents are announced after every session change.
var sessionEvents = []string{events.ChargingUpdated, events.InventoryUpdated, events.ActivityUpdated}

// Start puts quantity waiting batteries on a chargerType charger: a new active session whose
// ETA is the start plus the charger's minutes setting, and a charge_start movement
// (waiting → session). Refused with ErrNotEnough when fewer are waiting.
func Start(app core.App, op inventory.Op, chargerType string, quantity int) (*Session, *inventory.Movement, error) {
	if !IsChargerType(chargerType) {
		return nil, nil, apierr.Invalid("chargerType", MsgChargerTypeRequired)
	}
	if err := reqx.Count("quantity", quantity, 1, reqx.MaxCount, reqx.MsgQuantityRequired, reqx.MsgCountTooLarge); err != nil {
		return nil, nil, err
	}
	if err := op.CleanNotes(); err != nil {
		return nil, nil, err
	}
	return write(app, op, func(txApp core.App) (*Session, *inventory.Movement, error) {
		stored, err := settings.Load(txApp)
		if err != nil {
			return nil, nil, err
		}
		waiting, err := inventory.SystemAccount(txApp, inventory.KeyWaiting)
		if err != nil {
			return nil, nil, err
		}
		if waiting.Balance() < quantity {
			if waiting.Balance() == 0 {
				return nil, nil, apierr.NotEnoughOf(apierr.CodeNotEnoughWaiting, "No batteries available to charge")
			}
			return nil, nil, apierr.NotEnoughOf(apierr.CodeNotEnoughWaiting, fmt.Sprintf(inventory.MsgOnlyWaiting, waiting.Balance()))
		}
		at := when(op)
		rec, err := records.New(txApp, schema.ChargingSessions)
		if err != nil {
			return nil, nil, err
		}
		rec.Set(schema.SessionQuantity, quantity)
		rec.Set(schema.SessionChargerType, chargerType)
		rec.Set(schema.SessionStartedAt, at)
		rec.Set(schema.SessionEtaAt, at.Add(time.Duration(EtaMinutes(stored, chargerType))*time.Minute))
		rec.Set(schema.SessionStatus, schema.SessionStatusActive)
		rec.Set(schema.SessionStartedBy, op.ActorId())
		if err := txApp.SaveNoValidate(rec); err != nil {
			return nil, nil, err
		}
		acc, err := inventory.SessionAccount(txApp, rec.Id)
		if err != nil {
			return nil, nil, err
		}
		notes := fmt.Sprintf("Started charging %d batteries on %s charger", quantity, chargerType)
		if op.Notes != "" {
			notes += " - " + op.Notes
		}
		mv, err := inventory.Post(txApp, inventory.Posting{
			Type: inventory.TypeChargeStart, Quantity: quantity, Notes: notes, UserId: op.ActorId(),
			ActorId: op.ActorId(), SessionId: rec.Id, At: at,
			Meta: map[string]any{"chargerType": chargerType},
			Legs: []inventory.Leg{{From: waiting.Ref(), To: acc.Ref(), Qty: quantity}},
			Packs: []inventory.PackGroup{{Field: inventory.FieldPacks, Serials: op.Packs.Packs, Count: quantity,
				From: []inventory.AccountRef{waiting.Ref()}, To: acc.Ref()}},
		})
		if err != nil {
			return nil, nil, err
		}
		return &Session{rec}, mv, nil
	})
}

func when(op inventory.Op) time.Time {
	if op.At.IsZero() {
		return clock.Now().UTC()
	}
	return op.At.UTC()
}

// onActiveSession runs change on sessionId inside one transaction, refusing unless the
// session is active. change gets the session and its ledger account and returns the movement
// it wrote (nil for no change); the session is saved and announced when there was one.
func onActiveSession(app core.App, op inventory.Op, sessionId string, change func(txApp core.App, sess *Session, acc *inventory.Account) (*inventory.Movement, error)) (*Session, *inventory.Movement, error) {
	return write(app, op, func(txApp core.App) (*Session, *inventory.Movement, error) {
		sess, err := FindSession(txApp, sessionId)
		if err != nil {
			return nil, nil, err
		}
		if sess.Status() != schema.SessionStatusActive {
			return nil, nil, apierr.Conflict("Charging session is no longer active")
		}
		acc, err := inventory.SessionAccount(txApp, sessionId)
		if err != nil {
			return nil, nil, err
		}
		mv, err := change(txApp, sess, acc)
		if err != nil {
			return nil, nil, err
		}
		if mv != nil {
			if err := txApp.SaveNoValidate(sess.Record); err != nil {
				return nil, nil, err
			}
		}
		return sess, mv, nil
	})
}

// write runs change (a session's start or change) in one transaction, its packs named in the
// packs field only; when change wrote a movement the sessions are announced after commit.
func write(app core.App, op inventory.Op, change func(txApp core.App) (*Session, *inventory.Movement, error)) (*Session, *inventory.Movement, error) {
	if err := op.Packs.Only(inventory.FieldPacks); err != nil {
		return nil, nil, err
	}
	var sess *Session
	var mv *inventory.Movement
	err := app.RunInTransaction(func(txApp core.App) error {
		var err error
		if sess, mv, err = change(txApp); err != nil {
			return err
		}
		if mv != nil {
			events.Publish(txApp, sessionEvents...)
		}
		return op.Capture(txApp)
	})
	if err != nil {
		return nil, nil, err
	}
	return sess, mv, nil
}

// Complete marks sessionId done: its batteries move to ready (charge_complete).
func Complete(app core.App, op inventory.Op, sessionId string) (*Session, *inventory.Movement, error) {
	return end(app, op, sessionId, schema.SessionStatusCompleted, nil)
}

// MaxEnergyWh bounds the energy a charger may report for one session.
const MaxEnergyWh = 100000

// MsgEnergyWh refuses an energy that is not a number above 0 and at most MaxEnergyWh.
const MsgEnergyWh = "Energy must be a number above 0 and at most 100000 Wh"

// CompleteWithEnergy is Complete with the energy the charger reported (Wh, nil: not
// reported): kept on the session (DESIGN.md §16), and the packs it names re-derived
// (health.Derive) in the same transaction.
func CompleteWithEnergy(app core.App, op inventory.Op, sessionId string, energyWh *float64) (*Session, *inventory.Movement, error) {
	if energyWh != nil && (math.IsNaN(*energyWh) || *energyWh <= 0 || *energyWh > MaxEnergyWh) {
		return nil, nil, apierr.Invalid("energyWh", MsgEnergyWh)
	}
	return end(app, op, sessionId, schema.SessionStatusCompleted, energyWh)
}

// Delete cancels sessionId: its batteries go back to waiting.
func Delete(app core.App, op inventory.Op, sessionId string) (*Session, *inventory.Movement, error) {
	return end(app, op, sessionId, schema.SessionStatusDeleted, nil)
}

func end(app core.App, op inventory.Op, sessionId, status string, energyWh *float64) (*Session, *inventory.Movement, error) {
	return onActiveSession(app, op, sessionId, func(txApp core.App, sess *Session, acc *inventory.Account) (*inventory.Movement, error) {
		q := acc.Balance()
		destKey, typ := inventory.KeyReady, inventory.TypeChargeComplete
		notes := fmt.Sprintf("Completed charging session: %d batteries on %s charger now ready", q, sess.ChargerType())
		if status == schema.SessionStatusDeleted {
			destKey, typ = inventory.KeyWaiting, inventory.TypeInternalTransfer
			notes = fmt.Sprintf("Charging session deleted: %d batteries returned to waiting", q)
		}
		dest, err := inventory.SystemAccount(txApp, destKey)
		if err != nil {
			return nil, err
		}
		at := when(op)
		mv, err := inventory.Post(txApp, inventory.Posting{
			Type: typ, Quantity: q, Notes: notes, UserId: op.ActorId(), ActorId: op.ActorId(),
			SessionId: sessionId, At: at, Legs: []inventory.Leg{{From: acc.Ref(), To: dest.Ref(), Qty: q}},
			// the whole session moves: named packs, else the ones the records put on it; a
			// completion counts a charge for each
			Packs: []inventory.PackGroup{{Field: inventory.FieldPacks, Serials: op.Packs.Packs, Count: q,
				From: []inventory.AccountRef{acc.Ref()}, To: dest.Ref(), Implicit: true,
				Charged: status == schema.SessionStatusCompleted}},
		})
		if err != nil {
			return nil, err
		}
		sess.Set(schema.SessionStatus, status)
		sess.Set(schema.SessionEndedAt, at)
		if status == schema.SessionStatusDeleted {
			sess.Set(schema.SessionQuantity, 0) // a completed session keeps what it charged
		}
		if status == schema.SessionStatusCompleted {
			if energyWh != nil {
				sess.Set(schema.SessionEnergyWh, *energyWh)
				// the split over its packs counts this session's energy: stored before the derivation
				if err := txApp.SaveNoValidate(sess.Record); err != nil {
					return nil, err
				}
			}
			if err := deriveCharged(txApp, mv.Id); err != nil {
				return nil, err
			}
		}
		return mv, nil
	})
}

// deriveCharged re-derives the health of the packs movement mvId charged (its "charged" pack
// events): a completed session changes their charges and energy.
func deriveCharged(txApp core.App, mvId string) error {
	var ids []string
	err := txApp.DB().Select(schema.PackEventPack).From(schema.PackEvents).
		Where(dbx.HashExp{schema.PackEventMovement: mvId, schema.PackEventKind: schema.PackEventCharged}).Column(&ids)
	if err != nil {
		return err
	}
	return health.Derive(txApp, ids)
}

// Destinations for batteries taken off a session when its quantity is lowered.
const (
	DestinationReady   = "ready"
	DestinationWaiting = "waiting"
)

// SetQuantity changes an active session's quantity: lowering it moves the difference to
// destination (ready or waiting), raising it draws from waiting; lowered to 0 the session
// ends (completed when its batteries went to ready, deleted when to waiting). An unchanged
// quantity changes nothing and returns a nil movement.
func SetQuantity(app core.App, op inventory.Op, sessionId string, quantity int, destination string) (*Session, *inventory.Movement, error) {
	if err := reqx.Count("quantity", quantity, 0, reqx.MaxCount, MsgQuantityNegative, reqx.MsgCountTooLarge); err != nil {
		return nil, nil, err
	}
	return onActiveSession(app, op, sessionId, func(txApp core.App, sess *Session, acc *inventory.Account) (*inventory.Movement, error) {
		current := acc.Balance()
		if quantity == current {
			return nil, nil
		}
		waiting, err := inventory.SystemAccount(txApp, inventory.KeyWaiting)
		if err != nil {
			return nil, err
		}
		var leg inventory.Leg
		var notes string
		if quantity < current {
			if destination != DestinationReady && destination != DestinationWaiting {
				return nil, apierr.Invalid("destination", MsgDestination)
			}
			dest := waiting
			if destination == DestinationReady {
				if dest, err = inventory.SystemAccount(txApp, inventory.KeyReady); err != nil {
					return nil, err
				}
			}
			leg = inventory.Leg{From: acc.Ref(), To: dest.Ref(), Qty: current - quantity}
			notes = fmt.Sprintf("Charging session quantity changed from %d to %d: %d batteries moved to %s", current, quantity, current-quantity, destination)
		} else {
			if waiting.Balance() < quantity-current {
				return nil, apierr.NotEnoughOf(apierr.CodeNotEnoughWaiting, fmt.Sprintf(inventory.MsgOnlyWaiting, waiting.Balance()))
			}
			leg = inventory.Leg{From: waiting.Ref(), To: acc.Ref(), Qty: quantity - current}
			notes = fmt.Sprintf("Charging session quantity changed from %d to %d: %d batteries taken from waiting", current, quantity, quantity-current)
		}
		sess.Set(schema.SessionQuantity, quantity)
		if quantity == 0 {
			// nothing left on the chargers: the session ends, as a completion (to ready) or a
			// deletion (to waiting) would end it, so it leaves the table, the ETA list and the
			// due announcements
			status := schema.SessionStatusCompleted
			if destination == DestinationWaiting {
				status = schema.SessionStatusDeleted
			}
			sess.Set(schema.SessionStatus, status)
			sess.Set(schema.SessionEndedAt, when(op))
		}
		return inventory.Post(txApp, inventory.Posting{
			Type: inventory.TypeInternalTransfer, Quantity: quantity - current, Notes: notes,
			UserId: op.ActorId(), ActorId: op.ActorId(), SessionId: sessionId, At: when(op),
			Legs: []inventory.Leg{leg},
			// lowered to 0, the session empties: its packs go with it when none are named
			Packs: []inventory.PackGroup{{Field: inventory.FieldPacks, Serials: op.Packs.Packs, Count: leg.Qty,
				From: []inventory.AccountRef{leg.From}, To: leg.To, Implicit: quantity == 0}},
		})
	})
}

// SyncQuantities sets every active session's quantity to its account's balance (the
// ledger's truth), after inventory.Recalculate rebuilt the balances. Call inside that
// transaction (system.Recalculate); txutil.Require refuses otherwise.
func SyncQuantities(txApp core.App) error {
	if err := txutil.Require(txApp, "charging.SyncQuantities"); err != nil {
		return err
	}
	_, err := txApp.DB().NewQuery("UPDATE " + schema.ChargingSessions + " SET quantity = " +
		"COALESCE((SELECT balance FROM " + schema.Accounts + " a WHERE a.session = " + schema.ChargingSessions + ".id), 0) " +
		"WHERE status = {:active}").Bind(dbx.Params{"active": schema.SessionStatusActive}).Execute()
	return err
}

// EndEmptied ends every active session whose account holds no battery any more (a stocktake
// found none of its packs on the chargers), at at: like a quantity lowered to 0 (SetQuantity),
// nothing is left to charge, so it leaves the table, the ETA list and the due announcements.
// It is deleted rather than completed — nothing was charged. Call it inside the transaction
// that emptied the accounts, after SyncQuantities; txutil.Require refuses otherwise.
func EndEmptied(txApp core.App, at time.Time) error {
	if err := txutil.Require(txApp, "charging.EndEmptied"); err != nil {
		return err
	}
	ended, err := types.ParseDateTime(at.UTC())
	if err != nil {
		return err
	}
	return sqlitedb.Exec(txApp.DB(), "UPDATE "+schema.ChargingSessions+" SET status = {:deleted}, quantity = 0, endedAt = {:at}, updated = {:now} "+
		"WHERE status = {:active} AND COALESCE((SELECT balance FROM "+schema.Accounts+" a WHERE a.session = "+schema.ChargingSessions+".id), 0) = 0",
		dbx.Params{"deleted": schema.SessionStatusDeleted, "active": schema.SessionStatusActive, "at": ended.String(), "now": types.NowDateTime().String()})
}

// DeleteAll removes every charging session (a clean slate: inventory.CleanSlate removes their
// accounts in the same transaction, system.CleanSlate). txutil.Require refuses outside one.
func DeleteAll(txApp core.App) error {
	if err := txutil.Require(txApp, "charging.DeleteAll"); err != nil {
		return err
	}
	_, err := txApp.DB().NewQuery("DELETE FROM " + schema.ChargingSessions).Execute()
	return err
}
