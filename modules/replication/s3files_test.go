package replication_test

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/testkit"
	"swapbay/modules/terms"
)

// Files off the box (DESIGN.md §13): with PocketBase's S3 file storage on (here an in-process
// S3 server), a photo upload and an agreement PDF are stored in the bucket, not in the data
// dir, and GET /api/photos/{id}/image and GET /api/agreements/{id}/pdf answer the bucket's
// bytes.
func TestPhotosAndAgreementPDFsLiveOnS3(t *testing.T) {
	backend := s3mem.New()
	if err := backend.CreateBucket("swapbay-files"); err != nil {
		t.Fatal(err)
	}
	s3srv := httptest.NewServer(gofakes3.New(backend, gofakes3.WithLogger(gofakes3.DiscardLog())).Server())
	defer s3srv.Close()

	app := testkit.NewApp(t)
	defer app.Cleanup()
	c := testkit.SeedCallers(t, app)
	s := app.Settings()
	s.S3 = core.S3Config{Enabled: true, Bucket: "swapbay-files", Region: "us-east-1", Endpoint: s3srv.URL,
		AccessKey: "files", Secret: "files-secret", ForcePathStyle: true}
	if err := app.Save(s); err != nil {
		t.Fatal(err)
	}
	srv := testkit.Serve(t, app)
	do := func(who *core.Record, method, path string, body io.Reader) (int, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, body)
		req.Header.Set("Authorization", testkit.Token(t, who))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, b
	}
	objects := func() map[string][]byte {
		t.Helper()
		list, err := backend.ListBucket("swapbay-files", &gofakes3.Prefix{}, gofakes3.ListBucketPage{})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]byte{}
		for _, o := range list.Contents {
			obj, err := backend.GetObject("swapbay-files", o.Key, nil)
			if err != nil {
				t.Fatal(err)
			}
			out[o.Key], _ = io.ReadAll(obj.Contents)
			obj.Contents.Close()
		}
		return out
	}
	// find answers the one object under a record's id whose name ends in suffix (an agreement
	// holds its signature image and its PDF; map order is random, so the suffix picks)
	find := func(objs map[string][]byte, id, suffix string) []byte {
		for k, v := range objs {
			if strings.Contains(k, id) && strings.HasSuffix(strings.ToLower(k), suffix) && !strings.Contains(k, "thumbs_") {
				return v
			}
		}
		return nil
	}

	// a photo: upload URL, PUT, claim, then the image route
	st, b := do(c.Driver, "POST", "/api/objects/upload", nil)
	if st != 200 {
		t.Fatalf("upload url: %d %s", st, b)
	}
	var up struct{ UploadURL string }
	_ = json.Unmarshal(b, &up)
	if st, b = do(c.Driver, "PUT", up.UploadURL, bytes.NewReader(testJPEG(t))); st != 200 {
		t.Fatalf("put: %d %s", st, b)
	}
	claim, _ := json.Marshal(map[string]any{"filename": "scooter.jpg", "url": strings.SplitN(up.UploadURL, "?", 2)[0], "notes": "S3"})
	if st, b = do(c.Driver, "POST", "/api/photos/upload", bytes.NewReader(claim)); st != 200 {
		t.Fatalf("claim: %d %s", st, b)
	}
	var photo struct{ Id string }
	_ = json.Unmarshal(b, &photo)
	st, image := do(c.Admin, "GET", "/api/photos/"+photo.Id+"/image", nil)
	if st != 200 || len(image) == 0 {
		t.Fatalf("photo route: %d (%d bytes)", st, len(image))
	}

	// an agreement PDF: the driver signs the active terms, the PDF is made after the commit
	active, err := terms.FindActive(app)
	if err != nil {
		t.Fatal(err)
	}
	var agreement *core.Record
	if err := app.RunInTransaction(func(tx core.App) error {
		agreement, err = terms.RecordAgreement(tx, terms.Signature{User: c.Driver, Terms: active, PNG: signaturePNG(t),
			IP: "203.0.113.9", UserAgent: "Mozilla/5.0 test", SignedAt: time.Now()})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	terms.WaitForPDFs(app)
	st, pdf := do(c.Admin, "GET", terms.PDFPath(agreement.Id), nil)
	if st != 200 || !bytes.HasPrefix(pdf, []byte("%PDF")) {
		t.Fatalf("pdf route: %d %q", st, pdf[:min(len(pdf), 40)])
	}

	objs := objects()
	if got := find(objs, photo.Id, ".jpg"); !bytes.Equal(got, image) {
		t.Errorf("the photo route answered %d bytes, the bucket holds %d under the photo's record (objects: %d)", len(image), len(got), len(objs))
	}
	if got := find(objs, agreement.Id, ".pdf"); !bytes.Equal(got, pdf) {
		t.Errorf("the pdf route answered %d bytes, the bucket holds %d under the agreement's record", len(pdf), len(got))
	}
	// nothing of either is on the local disk
	_ = filepath.WalkDir(filepath.Join(app.DataDir(), "storage"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.Contains(path, photo.Id) || strings.Contains(path, agreement.Id)) {
			t.Errorf("a file stayed on the local disk: %s", path)
		}
		return nil
	})
}

func testJPEG(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for y := 0; y < 48; y++ {
		for x := 0; x < 64; x++ {
			img.Set(x, y, color.RGBA{uint8(x * 4), uint8(y * 5), 90, 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func signaturePNG(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 200, 60))
	for x := 10; x < 190; x++ {
		img.Set(x, 30+(x%10), color.Black)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
