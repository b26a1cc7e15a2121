package hq

import (
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
)

// CityAddedEvent is a city just added to head office (SaveCity without an id), inside the save:
// App is the transaction's app when the save runs in one (the keyed route's), so what a handler
// writes commits with the city or not at all.
type CityAddedEvent struct {
	hook.Event
	App  core.App
	City *core.Record
}

// cityAddedKey holds app's OnCityAdded hook in its store (shared with its transactions' apps).
const cityAddedKey = "hq.onCityAdded"

// OnCityAdded is app's hook run for every city added, inside the save. What head office keeps
// per city declares itself here (recall binds it: a city added later is sent every recall made
// before, DESIGN.md §15) rather than in SaveCity.
func OnCityAdded(app core.App) *hook.Hook[*CityAddedEvent] {
	return app.Store().GetOrSet(cityAddedKey, func() any { return &hook.Hook[*CityAddedEvent]{} }).(*hook.Hook[*CityAddedEvent])
}
