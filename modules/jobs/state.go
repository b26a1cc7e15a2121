package jobs

import (
	"time"

	"github.com/go-co-op/gocron/v2"
	"github.com/pocketbase/pocketbase/core"
)

// storeKey is where Register keeps the running scheduler in the app's store.
const storeKey = "swapbay.jobs.scheduler"

// State is one job's schedule as /api/debug/info shows it.
type State struct {
	Name    string    `json:"name"`
	LastRun time.Time `json:"lastRun,omitzero"`
	NextRun time.Time `json:"nextRun,omitzero"`
}

// States lists the running scheduler's jobs with their last and next run (none before serve).
func States(app core.App) []State {
	s, _ := app.Store().Get(storeKey).(gocron.Scheduler)
	if s == nil {
		return []State{}
	}
	out := []State{}
	for _, j := range s.Jobs() {
		st := State{Name: j.Name()}
		if t, err := j.LastRun(); err == nil {
			st.LastRun = t.UTC()
		}
		if t, err := j.NextRun(); err == nil {
			st.NextRun = t.UTC()
		}
		out = append(out, st)
	}
	return out
}
