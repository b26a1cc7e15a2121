package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/migrate"
	"swapbay/lib/schema"
)

// Creates the earnings tables (DESIGN.md §8): pay_rates, one row per rate change (integer
// cents, effective from effectiveAt), and task_adjustments, the audited replacements of a
// user's weekly count (who, when, the original and adjusted count, the reason). No API rules:
// only SwapBay's routes reach them; /_/ shows them to the superuser.
func init() {
	m.Register(func(app core.App) error {
		users, err := app.FindCollectionByNameOrId(schema.Users)
		if err != nil {
			return err
		}
		zero := 0.0
		maxCents := 100_000_000.0 // 1,000,000.00 per task: far above any real rate
		_, err = migrate.CreateBase(app, schema.PayRates, []core.Field{
			&core.NumberField{Name: schema.PayRateDeadBattery, Min: &zero, Max: &maxCents, OnlyInt: true},
			&core.NumberField{Name: schema.PayRateMove, Min: &zero, Max: &maxCents, OnlyInt: true},
			&core.NumberField{Name: schema.PayRateRecover, Min: &zero, Max: &maxCents, OnlyInt: true},
			&core.DateField{Name: schema.PayRateEffectiveAt, Required: true},
			&core.RelationField{Name: schema.PayRateCreatedBy, CollectionId: users.Id, MaxSelect: 1},
			migrate.Created(),
		}, migrate.Index("idx_pay_rates_effectiveAt", false, "`effectiveAt`", ""))
		if err != nil {
			return err
		}

		maxCount := 1_000_000.0
		_, err = migrate.CreateBase(app, schema.TaskAdjustments, []core.Field{
			&core.RelationField{Name: schema.AdjustmentUser, CollectionId: users.Id, MaxSelect: 1, Required: true, CascadeDelete: true},
			&core.TextField{Name: schema.AdjustmentWeekStart, Required: true, Pattern: `^\d{4}-\d{2}-\d{2}$`},
			&core.SelectField{Name: schema.AdjustmentTaskType, Required: true, MaxSelect: 1,
				Values: []string{schema.AdjustmentTaskBattery, schema.AdjustmentTaskMoves, schema.AdjustmentTaskRecovers}},
			&core.NumberField{Name: schema.AdjustmentOriginal, Min: &zero, Max: &maxCount, OnlyInt: true},
			&core.NumberField{Name: schema.AdjustmentAdjusted, Min: &zero, Max: &maxCount, OnlyInt: true},
			&core.TextField{Name: schema.AdjustmentReason, Max: 500},
			&core.RelationField{Name: schema.AdjustmentCreatedBy, CollectionId: users.Id, MaxSelect: 1},
			migrate.Created(),
		}, migrate.Index("idx_task_adjustments_week_user", false, "`weekStart`, `user`, `taskType`", ""))
		return err
	}, migrate.Drop(schema.TaskAdjustments, schema.PayRates))
}
