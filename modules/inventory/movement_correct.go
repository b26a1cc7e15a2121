package inventory

import (
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/httpx"
)

// The admin corrections of recorded movements (spec part 1 §5), registered in Register:
// PUT and DELETE /api/admin/movements/{id}. Their logic is EditMovement and DeleteMovement.

type editForm struct {
	Good  OptInt `json:"goodBatteries"`
	Dead  OptInt `json:"deadBatteries"`
	Notes string `json:"notes"`
}

func handleEditMovement(e *core.RequestEvent) error {
	var f editForm
	if err := httpx.BindJSON(e, &f, 0); err != nil {
		return err
	}
	// spec part 1 §5: non-numeric inputs fall back to 0
	good, dead := 0, 0
	if f.Good.Valid {
		good = f.Good.V
	}
	if f.Dead.Valid {
		dead = f.Dead.V
	}
	if good < 0 || dead < 0 || good+dead <= 0 {
		return FieldError("goodBatteries", "Total batteries must be greater than 0")
	}
	notes, err := CheckNotes("notes", f.Notes, "")
	if err != nil {
		return ToAPIError(e, err)
	}
	mv, err := EditMovement(e.App, Op{Actor: e.Auth}, e.Request.PathValue("id"), good, dead, notes)
	if err != nil {
		return ToAPIError(e, err)
	}
	return Success(e, "The movement has been corrected successfully.", map[string]any{"movement": mv})
}

func handleDeleteMovement(e *core.RequestEvent) error {
	if err := DeleteMovement(e.App, Op{Actor: e.Auth}, e.Request.PathValue("id")); err != nil {
		return ToAPIError(e, err)
	}
	return Success(e, "The movement has been deleted and batteries returned.", nil)
}
