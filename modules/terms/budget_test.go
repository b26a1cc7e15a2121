package terms_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image/png"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/bombs"
	"swapbay/internal/testkit"
	"swapbay/lib/schema"
	"swapbay/modules/terms"
)

func TestBoundSignatureReEncodesWithinTheLimits(t *testing.T) {
	// a text chunk in the upload: the bounded image carries only the pixels
	raw := signaturePNG()
	var withText bytes.Buffer
	withText.Write(raw[:33]) // signature and IHDR
	text := []byte("tEXtComment\x00SECRET-PAYLOAD")
	withText.Write(binary.BigEndian.AppendUint32(nil, uint32(len(text)-4)))
	withText.Write(binary.BigEndian.AppendUint32(text, crc32.ChecksumIEEE(text)))
	withText.Write(raw[33:])
	got, err := terms.BoundSignature(withText.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(got, []byte("SECRET-PAYLOAD")) {
		t.Fatal("the bounded signature still carries the upload's text chunk")
	}
	if cfg, err := png.DecodeConfig(bytes.NewReader(got)); err != nil || cfg.Width != 200 || cfg.Height != 60 {
		t.Fatalf("bounded signature %v %v", cfg, err)
	}
	for _, tc := range []struct {
		name string
		png  []byte
	}{
		{"8000×8000", bombs.PNG(8000, 8000, 8, bombs.Gray, true)},
		{"2001 wide", bombs.PNG(2001, 100, 8, bombs.Gray, true)},
		{"1001 high", bombs.PNG(100, 1001, 8, bombs.Gray, true)},
		{"16-bit", bombs.PNG(400, 100, 16, bombs.RGBA, true)},
	} {
		if _, err := terms.BoundSignature(tc.png); !errors.Is(err, terms.ErrSignatureDimensions) {
			t.Errorf("%s: %v, want ErrSignatureDimensions", tc.name, err)
		}
	}
}

// A signature stored before signatures were bounded is refused by its header: neither the
// after-commit generation nor the job renders it.
func TestAnOversizedStoredSignatureIsNeverRendered(t *testing.T) {
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	var renders atomic.Int32
	defer terms.SetRenderPDF(func(ev terms.Evidence) ([]byte, error) {
		renders.Add(1)
		return terms.RenderPDF(ev)
	})()
	active, err := terms.FindActive(app)
	if err != nil {
		t.Fatal(err)
	}
	var a *core.Record
	err = app.RunInTransaction(func(tx core.App) error {
		a, err = terms.RecordAgreement(tx, terms.Signature{User: c.Driver, Terms: active, PNG: bombs.PNG(8000, 8000, 8, bombs.Gray, true), SignedAt: time.Now()})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	terms.WaitForPDFs(app)
	if st, _ := status(t, app, a.Id); st != terms.PDFFailed {
		t.Fatalf("status %s, want failed", st)
	}
	// the job, once every backoff has passed
	if _, err := terms.RetryDue(context.Background(), app, time.Now().Add(13*time.Hour), 10); err != nil {
		t.Fatal(err)
	}
	if n := renders.Load(); n != 0 {
		t.Fatalf("rendered %d times", n)
	}
}

// The attempt and its retry time are recorded before the render: a process killed while
// rendering leaves the agreement to the job's backoff, not to an immediate re-render on
// restart.
func TestAnAttemptIsCountedBeforeItRenders(t *testing.T) {
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	var seen []int
	restore := terms.SetRenderPDF(func(ev terms.Evidence) ([]byte, error) {
		rec, err := app.FindRecordById(schema.Agreements, ev.AgreementID)
		if err != nil {
			return nil, err
		}
		if rec.GetDateTime(schema.AgreementPDFNextAt).IsZero() {
			t.Error("no retry time recorded before the render")
		}
		seen = append(seen, rec.GetInt(schema.AgreementPDFAttempts))
		return nil, errors.New("killed") // as far as the stored row can tell
	})
	a := sign(t, app, c.Driver)
	restore()
	if len(seen) != 1 || seen[0] != 1 {
		t.Fatalf("attempts seen by the render: %v", seen)
	}
	// as the kill leaves it: generating, signed two minutes ago, its retry time ahead
	if _, err := app.DB().NewQuery("UPDATE agreements SET pdfStatus = 'generating', created = {:t}, pdfNextAttemptAt = {:next} WHERE id = {:id}").
		Bind(map[string]any{"t": time.Now().Add(-2 * time.Minute).UTC().Format("2006-01-02 15:04:05.000Z"),
			"next": time.Now().Add(4 * time.Minute).UTC().Format("2006-01-02 15:04:05.000Z"), "id": a.Id}).Execute(); err != nil {
		t.Fatal(err)
	}
	if n, _ := terms.RetryDue(context.Background(), app, time.Now(), 10); n != 0 {
		t.Fatalf("the job re-rendered %d at once after the kill", n)
	}
	if n, _ := terms.RetryDue(context.Background(), app, time.Now().Add(5*time.Minute), 10); n != 1 {
		t.Fatalf("after the backoff the job made %d", n)
	}
}
