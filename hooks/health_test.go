package hooks_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"swapbay/lib/clock"
	"swapbay/lib/schema"
	"swapbay/modules/health"
)

// A pack model edited, created or deleted in /_/ re-derives its packs at once, as the models
// list's save does: a pack at 75% is worn under the default 80% threshold, no longer worn when a
// superuser lowers its model's threshold to 70, worn again when they raise it, and back under
// the default when they delete the model's row; a pack whose model is corrected in /_/ follows its
// new model's threshold.
func TestRawModelEditRederivesItsPacks(t *testing.T) {
	r := newRawApp(t)
	at := clock.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	if _, _, err := health.ImportReadings(r.app, fmt.Sprintf("serial,time,source,soh\nSWB-000001,%s,bms,75\n", at), false, "raw-model-test", ""); err != nil {
		t.Fatal(err)
	}
	worn := func() bool {
		t.Helper()
		var w bool
		if err := r.app.DB().NewQuery("SELECT worn FROM packs WHERE serial = 'SWB-000001'").Row(&w); err != nil {
			t.Fatal(err)
		}
		return w
	}
	if !worn() {
		t.Fatal("a pack at 75% is not worn under the default 80%")
	}
	status, out := r.do(t, http.MethodPost, "/api/collections/"+schema.PackModels+"/records", map[string]any{"model": "Nova", "threshold": 70})
	if status != http.StatusOK || worn() {
		t.Fatalf("a model created at 70%%: %d %v, worn %v", status, out, worn())
	}
	id, _ := out["id"].(string)
	if status, out := r.do(t, http.MethodPatch, "/api/collections/"+schema.PackModels+"/records/"+id, map[string]any{"threshold": 90}); status != http.StatusOK || !worn() {
		t.Fatalf("the threshold raised to 90%%: %d %v, worn %v", status, out, worn())
	}
	if status, out := r.do(t, http.MethodPatch, "/api/collections/"+schema.PackModels+"/records/"+id, map[string]any{"threshold": 70}); status != http.StatusOK || worn() {
		t.Fatalf("lowered to 70%% again: %d %v, worn %v", status, out, worn())
	}
	if status, out := r.do(t, http.MethodPatch, "/api/collections/"+schema.PackModels+"/records/"+id, map[string]any{"threshold": 0}); status != http.StatusBadRequest || worn() {
		t.Fatalf("a threshold of 0: %d %v (want 400, nothing changed), worn %v", status, out, worn())
	}
	if status, out := r.do(t, http.MethodDelete, "/api/collections/"+schema.PackModels+"/records/"+id, nil); status != http.StatusNoContent || !worn() {
		t.Fatalf("the model deleted (the default 80%% again): %d %v, worn %v", status, out, worn())
	}

	// a pack's model corrected in /_/ to one whose threshold is 70: no longer worn
	seventy := 70.0
	if _, err := health.SaveModel(r.app, health.ModelInput{Model: "Nova Lite", Threshold: &seventy}); err != nil {
		t.Fatal(err)
	}
	packId := firstId(t, r.app, schema.Packs, "serial = 'SWB-000001'")
	if status, out := r.do(t, http.MethodPatch, "/api/collections/"+schema.Packs+"/records/"+packId, map[string]any{"model": "Nova Lite"}); status != http.StatusOK || worn() {
		t.Fatalf("the pack's model corrected to one at 70%%: %d %v, worn %v", status, out, worn())
	}
}
