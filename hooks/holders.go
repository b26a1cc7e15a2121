package hooks

import (
	"net/http"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
)

func bindHolders(app core.App) {
	// a user who still holds batteries is never deleted: their holder accounts would lose
	// their owner and the batteries would be stranded in the field count
	app.OnRecordDelete(schema.Users).Bind(named(KeepHoldersId, keepHoldersPriority, keepHolders))
}

func keepHolders(e *core.RecordEvent) error {
	held, err := inventory.HeldBy(e.App, e.Record.Id)
	if err != nil {
		return err
	}
	if held > 0 {
		return apierr.NewCode(http.StatusConflict, "", inventory.MsgHoldsBatteries, apierr.CodeHoldsBatteries)
	}
	return e.Next()
}
