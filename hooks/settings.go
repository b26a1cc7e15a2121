package hooks

import (
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"

	"swapbay/lib/apierr"
	"swapbay/lib/schema"
	"swapbay/lib/settings"
	"swapbay/modules/system"
)

// MsgSettingNotEditable refuses a raw write of a settings row no key registers (pack_sequence,
// the last minted serial: changing it would hand out a serial twice).
const MsgSettingNotEditable = "This setting is the app's own and cannot be changed here."

func bindSettings(app core.App) {
	// a raw settings row is a registered key whose value passes that key's own check (the
	// System page's rules), stored as the check returns it
	for _, h := range []*hook.TaggedHook[*core.RecordRequestEvent]{
		app.OnRecordCreateRequest(schema.Settings), app.OnRecordUpdateRequest(schema.Settings),
	} {
		h.Bind(named("swapbayRawSettingsWrite", rawGuardPriority+1, checkSetting))
	}
	// …and a row no key registers is never deleted either
	app.OnRecordDeleteRequest(schema.Settings).Bind(named("swapbayRawSettingsDelete", rawGuardPriority+1, func(e *core.RecordRequestEvent) error {
		if _, ok := settings.Lookup(e.Record.GetString(schema.SettingKey)); !ok {
			return refuse(MsgSettingNotEditable)
		}
		return e.Next()
	}))
}

func checkSetting(e *core.RecordRequestEvent) error {
	key := e.Record.GetString(schema.SettingKey)
	if orig := e.Record.Original().GetString(schema.SettingKey); !e.Record.IsNew() && orig != key {
		if _, ok := settings.Lookup(orig); !ok {
			return refuse(MsgSettingNotEditable)
		}
	}
	spec, ok := settings.Lookup(key)
	if !ok {
		if key == schema.SettingPackSequence {
			return refuse(MsgSettingNotEditable)
		}
		return apierr.Invalid(schema.SettingKey, system.MsgUnknownSetting+key)
	}
	if spec.Check != nil {
		text, err := spec.Check(key, e.Record.GetString(schema.SettingValue))
		if err != nil {
			return err
		}
		e.Record.Set(schema.SettingValue, text)
	}
	return e.Next()
}
