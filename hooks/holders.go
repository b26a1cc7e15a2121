package hooks

import (
	"net/http"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/photos"
)

func bindHolders(app core.App) {
	// a user who still holds batteries is never deleted: their holder accounts would lose
	// their owner and the batteries would be stranded in the field count
	app.OnRecordDelete(schema.Users).Bind(named(KeepHoldersId, keepHoldersPriority, keepHolders))
	// a deleted user's history keeps who they were: their movements (names, and their pay,
	// inventory.KeepFormerUser) and their photos (photos.KeepFormerUploader), whatever door
	// the delete came through (was: a delete from /_/ left their movements naming nobody, and
	// their weeks unpaid). Runs inside the delete's transaction, before the row goes.
	app.OnRecordDeleteExecute(schema.Users).Bind(named(KeepFormerUserId, keepFormerPriority, keepFormerUser))
}

func keepFormerUser(e *core.RecordEvent) error {
	if err := inventory.KeepFormerUser(e.App, e.Record); err != nil {
		return err
	}
	if err := photos.KeepFormerUploader(e.App, e.Record); err != nil {
		return err
	}
	return e.Next()
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
