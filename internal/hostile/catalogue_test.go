package hostile_test

import (
	"testing"

	"swapbay/internal/drill"
	catalogue "swapbay/internal/hostile"
)

// The hostile catalogue on a real server: no single hostile request raises its RSS by more
// than catalogue.SingleBudgetMB, 8 at once keep it under catalogue.ConcurrentBudgetMB with the
// ordinary routes answering, and each is answered as it should be (refused by its header,
// accepted within the limits, rate limited).
func TestHostileCatalogueStaysWithinTheMemoryBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server per case")
	}
	work := t.TempDir()
	bin, err := drill.Build(work)
	if err != nil {
		t.Fatal(err)
	}
	results, err := catalogue.RunAll(bin, work, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if r.Problem != "" {
			t.Errorf("%s: %s (base %.0f MB, peak %.0f MB; %s)", r.Name, r.Problem, r.BaseMB, r.PeakMB, r.Note)
		}
	}
}
