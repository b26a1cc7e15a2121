package hooks

import (
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"

	"swapbay/lib/schema"
	"swapbay/modules/health"
)

// Hook ids: re-deriving packs' health after a raw write of a model, or of a pack's descriptive fields.
const (
	RawModelId      = "swapbayRawPackModel"
	RawPackHealthId = "swapbayRawPackHealth"
)

// bindHealth: a pack model is plain data (the models list), and /_/ may write it too; its packs'
// health (worn or not, under which threshold) follows the model's figures at once, as the models
// list's save does — not only at the nightly re-derivation.
func bindHealth(app core.App) {
	rederive := func(e *core.RecordRequestEvent) error {
		before := e.Record.Original().GetString(schema.PackModelName) // "" for a create
		if err := e.Next(); err != nil {
			return err
		}
		return health.RederiveModels(e.App, before, e.Record.GetString(schema.PackModelName))
	}
	for _, h := range []*hook.TaggedHook[*core.RecordRequestEvent]{
		app.OnRecordCreateRequest(schema.PackModels), app.OnRecordUpdateRequest(schema.PackModels), app.OnRecordDeleteRequest(schema.PackModels),
	} {
		// inside the audit's transaction (rawAuditPriority wraps the save in one): the model, its
		// audit row and its packs' health commit together or not at all
		h.Bind(named(RawModelId, rawAuditPriority+1, rederive))
	}
	// …and a pack whose descriptive fields a superuser corrected (its model, its nominal Wh: the
	// threshold and the cycles follow them) is re-derived in the same transaction
	app.OnRecordUpdateRequest(schema.Packs).Bind(named(RawPackHealthId, rawAuditPriority+1, func(e *core.RecordRequestEvent) error {
		if err := e.Next(); err != nil {
			return err
		}
		return e.App.RunInTransaction(func(txApp core.App) error { return health.Derive(txApp, []string{e.Record.Id}) })
	}))
}
