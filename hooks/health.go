package hooks

import (
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"

	"swapbay/lib/schema"
	"swapbay/modules/health"
)

// RawModelId names the hook that re-derives a model's packs after a raw write of it.
const RawModelId = "swapbayRawPackModel"

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
		h.Bind(&hook.Handler[*core.RecordRequestEvent]{Id: RawModelId, Priority: rawAuditPriority + 1, Func: rederive})
	}
}
