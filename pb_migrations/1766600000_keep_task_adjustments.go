package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/schema"
)

// Makes task adjustments outlive their user's account, as their movements do
// (inventory.KeepFormerUser): deleting a user deleted their adjustments with them, and the
// weeks they were paid for changed. Deleting a user now clears the adjustment's user link, and
// the earner field keeps whose count it replaces (the user's id, set on every adjustment).
func init() {
	m.Register(func(app core.App) error {
		col, err := app.FindCollectionByNameOrId(schema.TaskAdjustments)
		if err != nil {
			return err
		}
		if f, ok := col.Fields.GetByName(schema.AdjustmentUser).(*core.RelationField); ok {
			f.CascadeDelete = false
			f.Required = false
		}
		col.Fields.Add(&core.TextField{Name: schema.AdjustmentEarner, Max: 100})
		col.AddIndex("idx_task_adjustments_week_earner", false, "`weekStart`, `earner`", "")
		if err := app.Save(col); err != nil {
			return err
		}
		_, err = app.DB().NewQuery("UPDATE " + schema.TaskAdjustments + " SET " + schema.AdjustmentEarner + " = " +
			schema.AdjustmentUser + " WHERE " + schema.AdjustmentEarner + " = ''").Execute()
		return err
	}, nil)
}
