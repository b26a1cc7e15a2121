package journal

import (
	"testing"

	"swapbay/lib/schema"
)

// A state change says whether the pack's battery moves with it: out of use → quarantine,
// back in use → waiting; a pack declared lost keeps its use, and found again returns it.
func TestChangeMovesTheBattery(t *testing.T) {
	for _, c := range []struct {
		from, before, to   string
		outOfUse, released bool
	}{
		{schema.PackStateInService, "", schema.PackStateQuarantined, true, false},
		{schema.PackStateMaintenance, "", schema.PackStateRetired, true, false},
		{schema.PackStateQuarantined, "", schema.PackStateInService, false, true},
		{schema.PackStateQuarantined, "", schema.PackStateLost, false, false},
		{schema.PackStateLost, schema.PackStateQuarantined, schema.PackStateInService, false, true},
		{schema.PackStateLost, schema.PackStateInService, schema.PackStateQuarantined, true, false},
		{schema.PackStateLost, schema.PackStateQuarantined, schema.PackStateQuarantined, false, false},
		{schema.PackStateRetired, "", schema.PackStateRecycled, false, false},
		{schema.PackStateInService, "", schema.PackStateLost, false, false},
	} {
		ch := Change{From: c.from, FromBefore: c.before, To: c.to}
		if ch.WentOutOfUse() != c.outOfUse || ch.Released() != c.released {
			t.Errorf("%s(%s) → %s: out of use %v, released %v; want %v, %v", c.from, c.before, c.to, ch.WentOutOfUse(), ch.Released(), c.outOfUse, c.released)
		}
	}
}

// One reading of a code: a label URL or a bare serial, trimmed and upper-cased.
func TestSerial(t *testing.T) {
	for code, want := range map[string]string{
		" swb-000001 ":                         "SWB-000001",
		"https://bay.example/p/SWB-000002":     "SWB-000002",
		"https://bay.example/p/swb-000003?x=1": "SWB-000003",
		"http://other/x/p/ACME-000004/":        "ACME-000004",
	} {
		if got := Serial(code); got != want {
			t.Errorf("Serial(%q) = %q; want %q", code, got, want)
		}
	}
}
