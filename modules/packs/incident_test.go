package packs_test

import (
	"bytes"
	"image"
	"image/jpeg"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/filesystem"

	"swapbay/internal/testkit"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/packs"
)

// phonePhoto is a JPEG of a phone photo's size (2400x1800, 4.3 MP: 6.5 MB once decoded).
func phonePhoto(t *testing.T) []byte {
	t.Helper()
	img := image.NewYCbCr(image.Rect(0, 0, 2400, 1800), image.YCbCrSubsampleRatio420)
	for i := range img.Y {
		img.Y[i] = uint8(i / 2400 * 3)
	}
	for i := range img.Cb {
		img.Cb[i], img.Cr[i] = uint8(i/1200), 128
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// incidentPack saves a pack with a damage report carrying n photos (by reporter) at `at`, and
// a history around it: lines inside the ±14 days and one outside. It returns the pack's
// serial and the report's event id.
func incidentPack(t *testing.T, app core.App, reporter *core.Record, n int, photo []byte, at time.Time) (string, string) {
	t.Helper()
	pc, _ := app.FindCollectionByNameOrId(schema.Packs)
	ec, _ := app.FindCollectionByNameOrId(schema.PackEvents)
	phc, _ := app.FindCollectionByNameOrId(schema.Photos)
	p := packs.NewPack(pc)
	p.Set(schema.PackSerial, "INC-000042")
	p.Set(schema.PackModel, "S-48V 15Ah")
	p.Set(schema.PackChemistry, "NMC")
	p.Set(schema.PackNominalWh, 720)
	p.Set(schema.PackManufacturer, "Voltcell")
	p.Set(schema.PackLot, "L2026-03")
	p.Set(schema.PackManufactured, "2026-03")
	p.Set(schema.PackState, schema.PackStateQuarantined)
	p.Set(schema.PackChargeCount, 17)
	if err := app.Save(p); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for range n {
		ph := core.NewRecord(phc)
		f, err := filesystem.NewFileFromBytes(photo, "photo.jpg")
		if err != nil {
			t.Fatal(err)
		}
		ph.Set(schema.PhotoFile, f)
		ph.Set(schema.PhotoUploadedBy, reporter.Id)
		ph.Set(schema.PhotoClaimed, true)
		ph.Set(schema.PhotoContentType, "image/jpeg")
		if err := app.Save(ph); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, ph.Id)
	}
	save := func(kind string, when time.Time, set map[string]any) string {
		ev := packs.NewEvent(ec, p.Id, kind, reporter.Id, when)
		for k, v := range set {
			ev.Set(k, v)
		}
		if err := app.Save(ev); err != nil {
			t.Fatal(err)
		}
		return ev.Id
	}
	save(schema.PackEventState, at.Add(-20*24*time.Hour), map[string]any{schema.PackEventFromState: "in_service",
		schema.PackEventToState: "maintenance", schema.PackEventReason: "OUTSIDE-THE-WINDOW"})
	save(schema.PackEventCharged, at.Add(-3*24*time.Hour), nil)
	save(schema.PackEventState, at.Add(-2*24*time.Hour), map[string]any{schema.PackEventFromState: "maintenance",
		schema.PackEventToState: "in_service", schema.PackEventReason: "Cells balanced"})
	id := save(schema.PackEventDamage, at, map[string]any{schema.PackEventReason: "Swollen casing after a fall from the rack",
		schema.PackEventPhotos: ids})
	save(schema.PackEventState, at.Add(time.Hour), map[string]any{schema.PackEventFromState: "in_service",
		schema.PackEventToState: "quarantined", schema.PackEventReason: "Damage report"})
	return p.Serial(), id
}

// The incident PDF of a damage report with 10 photos: pdftotext finds the pack's serial, the
// note, the reporter and the history lines of the ±14 days (not the one 20 days before); it is
// built from the photos' 400x400 thumbnails, so its allocations stay small. Admins only; an
// event that is not the pack's damage report is a 404.
func TestIncidentReport(t *testing.T) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed")
	}
	app, c, srv := start(t)
	defer app.Cleanup()
	reporter := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	reporter.Set(schema.UserFirstName, "Amélie")
	reporter.Set(schema.UserLastName, "Zuckerbrot")
	if err := app.Save(reporter); err != nil {
		t.Fatal(err)
	}
	photo := phonePhoto(t)
	serial, id := incidentPack(t, app, reporter, 10, photo, time.Date(2026, 5, 10, 14, 30, 0, 0, time.UTC))
	path := "/api/admin/packs/" + serial + "/incidents/" + id + "/report"

	for who, want := range map[string]int{testkit.Guest: 401, testkit.Driver: 403, testkit.Liaison: 403, testkit.Admin: 200, testkit.Master: 200} {
		h := map[string]string{}
		if who != testkit.Guest {
			h = testkit.Headers(t, c.Pick(who))
		}
		if st, raw := srv.do(h, "GET", path, nil); st != want {
			t.Errorf("%s: %d %.200s; want %d", who, st, raw, want)
		}
	}
	for _, bad := range []string{"/api/admin/packs/" + serial + "/incidents/nosuchevent0000/report", "/api/admin/packs/SWB-999999/incidents/" + id + "/report"} {
		if st, raw := srv.do(testkit.Headers(t, c.Admin), "GET", bad, nil); st != 404 {
			t.Errorf("%s = %d %s; want 404", bad, st, raw)
		}
	}
	st, pdf := srv.do(testkit.Headers(t, c.Admin), "GET", path, nil) // the thumbnails are stored now
	if st != 200 || !bytes.HasPrefix(pdf, []byte("%PDF")) {
		t.Fatalf("report = %d %.100s", st, pdf)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "incident.pdf")
	if err := os.WriteFile(file, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", file, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	for _, want := range []string{serial, "Swollen casing after a fall from the rack", "Reported by: Amélie Zuckerbrot", "Photos (10)",
		"When: 2026-05-10 14:30 UTC", "2026-05-07 14:30 UTC · Charged", "State: Maintenance → In service", "Cells balanced",
		"State: In service → Quarantined", "Damage reported", "Lot: L2026-03", "Manufactured: 2026-03", "Charge count: 17"} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "OUTSIDE-THE-WINDOW") {
		t.Errorf("the report holds a line from 20 days before:\n%s", text)
	}
	if os.Getenv("SWAPBAY_KEEP_PDF") != "" {
		_ = os.WriteFile(os.Getenv("SWAPBAY_KEEP_PDF"), pdf, 0o644)
	}

	// memory: the report of a pack with 10 photos, from their stored thumbnails
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := packs.WriteIncidentReport(app, io.Discard, serial, id); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("incident report, 10 photos of %d KB: %d KB, %.1f MB allocated", len(photo)>>10, len(pdf)>>10, float64(alloc)/(1<<20))
	if alloc > 30<<20 { // 10 decoded photos alone would be 65 MB
		t.Errorf("the report allocated %d MB: are the full pictures decoded?", alloc>>20)
	}
	if len(pdf) > 10*len(photo)/3 { // the thumbnails, not the photos, are embedded
		t.Errorf("the report is %d KB for 10 photos of %d KB: are the full pictures embedded?", len(pdf)>>10, len(photo)>>10)
	}
}
