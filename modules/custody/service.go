package custody

import (
	"fmt"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/events"
	"swapbay/lib/reqx"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
)

// Messages of the custody forms (spec part 2 §5).
const (
	MsgAssignmentNotFound     = "Assignment not found"
	MsgAssignmentEmpty        = "This assignment holds no batteries"
	MsgDriverRequired         = "Driver is required"
	MsgAssignmentTypeRequired = "Assignment type is required"
	MsgNothingToTransfer      = "Must specify at least some good or dead batteries to transfer"
	MsgDeadAtLeastOne         = "Dead batteries must be at least 1"
	MsgFromRequired           = "From driver is required"
	MsgToRequired             = "To driver is required"
	MsgSameDriver             = "Cannot swap batteries with the same driver"
)

// findHolderUser loads userId and checks it may hold batteries (role driver, admin or
// master_admin, approved); missing or ineligible users get notFoundMsg.
func findHolderUser(app core.App, userId, field, notFoundMsg string) (*core.Record, error) {
	u, err := app.FindRecordById(schema.Users, userId)
	if err != nil || !roles.CanHoldBatteries(u.GetString(schema.UserRole)) ||
		u.GetString(schema.UserIsApproved) != roles.Approved {
		return nil, &apierr.Error{Kind: apierr.ErrNotFound, Message: notFoundMsg, Field: field}
	}
	return u, nil
}

// Assign gives userId quantity ready batteries under assignmentType (a manual assignment).
// Refused with 'Only N batteries available' when fewer are ready.
func Assign(app core.App, op inventory.Op, userId string, quantity int, assignmentType string) (*inventory.Movement, *inventory.Account, error) {
	if userId == "" {
		return nil, nil, apierr.Invalid("userId", MsgDriverRequired)
	}
	if err := reqx.Count("quantity", quantity, 1, reqx.MaxCount, reqx.MsgQuantityRequired, reqx.MsgCountTooLarge); err != nil {
		return nil, nil, err
	}
	if !inventory.IsAssignmentType(assignmentType) {
		return nil, nil, apierr.Invalid("assignmentType", MsgAssignmentTypeRequired)
	}
	if err := op.CleanNotes(); err != nil {
		return nil, nil, err
	}
	var mv *inventory.Movement
	var holder *inventory.Account
	err := app.RunInTransaction(func(txApp core.App) error {
		user, err := findHolderUser(txApp, userId, "userId", "Driver not found or not eligible to hold batteries")
		if err != nil {
			return err
		}
		ready, err := inventory.SystemAccount(txApp, inventory.KeyReady)
		if err != nil {
			return err
		}
		if ready.Balance() < quantity {
			return apierr.NotEnoughOf(apierr.CodeNotEnoughReady, fmt.Sprintf("Only %d batteries available", ready.Balance()))
		}
		if mv, err = inventory.PostAssignment(txApp, op, user, quantity, assignmentType); err != nil {
			return err
		}
		if holder, err = inventory.HolderAccount(txApp, user.Id, assignmentType); err != nil {
			return err
		}
		return op.Capture(txApp)
	})
	if err != nil {
		return nil, nil, err
	}
	return mv, holder, nil
}

// DeleteAssignment deletes assignments (spec part 2, "Driver swaps and assignments"); id is
// either an assignment's id as GET /api/admin/battery-holders lists it (that holding moves to
// waiting) or a holder's user id (every holding of theirs does). One movement per non-empty
// holding, which it returns. Any other id is 404 "Assignment not found"; nothing held is 409.
func DeleteAssignment(app core.App, op inventory.Op, id string) ([]*inventory.Movement, error) {
	var out []*inventory.Movement
	err := app.RunInTransaction(func(txApp core.App) error {
		holdings, err := holdingsOf(txApp, id)
		if err != nil {
			return err
		}
		waiting, err := inventory.SystemAccount(txApp, inventory.KeyWaiting)
		if err != nil {
			return err
		}
		for _, h := range holdings {
			q := h.Balance()
			if q <= 0 {
				continue
			}
			user, _ := txApp.FindRecordById(schema.Users, h.UserId())
			mv, err := inventory.Post(txApp, inventory.Posting{
				Type: inventory.TypeInternalTransfer, Quantity: q, UserId: h.UserId(), ActorId: op.ActorId(),
				At: op.At, Notes: fmt.Sprintf("Assignment deleted: %d batteries (%s) from %s moved to waiting",
					q, h.AssignmentType(), inventory.DisplayName(user)),
				Meta: map[string]any{inventory.MetaAssignmentType: h.AssignmentType(), inventory.MetaKind: "assignment_deleted"},
				Legs: []inventory.Leg{{From: h.Ref(), To: waiting.Ref(), Qty: q}},
				// the packs the records put in that holding go with it
				Packs: []inventory.PackGroup{{Count: q, From: []inventory.AccountRef{h.Ref()}, To: waiting.Ref(), Implicit: true}},
			})
			if err != nil {
				return err
			}
			out = append(out, mv)
		}
		if len(out) == 0 {
			return apierr.Conflict(MsgAssignmentEmpty)
		}
		events.Publish(txApp, inventory.MovementEvents...)
		return op.Capture(txApp)
	})
	return out, err
}

// holdingsOf returns the holdings id names: that one assignment, or every holding of user id.
func holdingsOf(txApp core.App, id string) ([]*inventory.Account, error) {
	if acc, ok, err := inventory.FindHolding(txApp, id); err != nil {
		return nil, err
	} else if ok {
		return []*inventory.Account{acc}, nil
	}
	if _, err := txApp.FindRecordById(schema.Users, id); err != nil {
		return nil, apierr.NotFound(MsgAssignmentNotFound)
	}
	return inventory.FindHolderAccounts(txApp, id)
}

// SwapRequest is a driver-to-driver transfer (spec part 2 §5). In an exchange the receiver
// also hands ReturnGood+ReturnDead back to the giver.
type SwapRequest struct {
	FromUserId, ToUserId   string
	Good, Dead             int
	ReturnGood, ReturnDead int
	IsExchange             bool
	// ReturnPacks are the packs of the exchange's return (returnGoodPacks, returnDeadPacks);
	// the transfer's are op.Packs.
	ReturnPacks inventory.PackNames
}

// SwapResult holds the pairs written: the transfer and, for an exchange, the return.
type SwapResult struct {
	Transfer inventory.SwapPair  `json:"transfer"`
	Return   *inventory.SwapPair `json:"return,omitempty"`
}

// Swap transfers batteries between two holders with every check of spec part 2 §5.
func Swap(app core.App, op inventory.Op, req SwapRequest) (SwapResult, error) {
	if err := checkPair(req.FromUserId, req.ToUserId); err != nil {
		return SwapResult{}, err
	}
	for _, c := range []struct {
		field string
		v     int
	}{{"goodBatteries", req.Good}, {"deadBatteries", req.Dead}, {"returnGoodBatteries", req.ReturnGood}, {"returnDeadBatteries", req.ReturnDead}} {
		if err := reqx.Count(c.field, c.v, 0, reqx.MaxCount, reqx.MsgCountInvalid, reqx.MsgCountTooLarge); err != nil {
			return SwapResult{}, err
		}
	}
	if req.Good+req.Dead <= 0 {
		return SwapResult{}, apierr.Invalid("goodBatteries", MsgNothingToTransfer)
	}
	if err := op.CleanNotes(); err != nil {
		return SwapResult{}, err
	}
	var res SwapResult
	err := app.RunInTransaction(func(txApp core.App) error {
		from, to, err := loadPair(txApp, req.FromUserId, req.ToUserId, req.Good+req.Dead)
		if err != nil {
			return err
		}
		if req.Dead > 0 {
			toHeld, err := inventory.HeldBy(txApp, to.Id)
			if err != nil {
				return err
			}
			if req.Dead > toHeld {
				return apierr.NotEnoughOf(apierr.CodeInsufficientHoldings, fmt.Sprintf("Dead batteries (%d) cannot exceed what %s holds (%d)", req.Dead, inventory.DisplayName(to), toHeld))
			}
		}
		if res.Transfer, err = inventory.PostSwap(txApp, op, from, to, req.Good, req.Dead, inventory.SwapKindSwap); err != nil {
			return err
		}
		if req.IsExchange && req.ReturnGood+req.ReturnDead > 0 {
			backOp := op
			backOp.Packs = req.ReturnPacks
			backOp.Packs.Return = true
			back, err := inventory.PostSwap(txApp, backOp, to, from, req.ReturnGood, req.ReturnDead, inventory.SwapKindReturn)
			if err != nil {
				return err
			}
			res.Return = &back
		}
		return op.Capture(txApp)
	})
	return res, err
}

// DeadTransfer moves dead batteries from one holder to another.
func DeadTransfer(app core.App, op inventory.Op, fromUserId, toUserId string, dead int) (inventory.SwapPair, error) {
	if err := checkPair(fromUserId, toUserId); err != nil {
		return inventory.SwapPair{}, err
	}
	if err := reqx.Count("deadBatteries", dead, 1, reqx.MaxCount, MsgDeadAtLeastOne, reqx.MsgCountTooLarge); err != nil {
		return inventory.SwapPair{}, err
	}
	if err := op.CleanNotes(); err != nil {
		return inventory.SwapPair{}, err
	}
	var pair inventory.SwapPair
	err := app.RunInTransaction(func(txApp core.App) error {
		from, to, err := loadPair(txApp, fromUserId, toUserId, dead)
		if err != nil {
			return err
		}
		if pair, err = inventory.PostSwap(txApp, op, from, to, 0, dead, inventory.SwapKindDeadTransfer); err != nil {
			return err
		}
		return op.Capture(txApp)
	})
	return pair, err
}

func checkPair(fromUserId, toUserId string) error {
	if fromUserId == "" {
		return apierr.Invalid("fromUserId", MsgFromRequired)
	}
	if toUserId == "" {
		return apierr.Invalid("toUserId", MsgToRequired)
	}
	if fromUserId == toUserId {
		return apierr.Invalid("toUserId", MsgSameDriver)
	}
	return nil
}

// loadPair loads giver and receiver and checks the giver holds at least give batteries.
func loadPair(txApp core.App, fromUserId, toUserId string, give int) (*core.Record, *core.Record, error) {
	from, err := txApp.FindRecordById(schema.Users, fromUserId)
	if err != nil {
		return nil, nil, apierr.NotFound("From driver not found or has no batteries")
	}
	held, err := inventory.HeldBy(txApp, from.Id)
	if err != nil {
		return nil, nil, err
	}
	if held <= 0 {
		return nil, nil, apierr.NotEnoughOf(apierr.CodeInsufficientHoldings, "From driver not found or has no batteries")
	}
	if give > held {
		return nil, nil, apierr.NotEnoughOf(apierr.CodeInsufficientHoldings, fmt.Sprintf(inventory.MsgCannotGive, inventory.DisplayName(from), held, give))
	}
	to, err := findHolderUser(txApp, toUserId, "toUserId", "To driver not found")
	if err != nil {
		return nil, nil, err
	}
	return from, to, nil
}
