package photos_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/bombs"
	"swapbay/internal/testkit"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/photos"
	"swapbay/modules/system"
	"swapbay/modules/users"
)

type env struct {
	t   *testing.T
	app core.App
	srv *httptest.Server
	c   testkit.Callers
}

func newEnv(t *testing.T) *env {
	app := testkit.NewApp(t)
	t.Cleanup(app.Cleanup)
	c := testkit.SeedCallers(t, app)
	return &env{t: t, app: app, srv: testkit.Serve(t, app), c: c}
}

// do sends a request as who (nil: guest) and returns status and body.
func (e *env) do(who *core.Record, method, path string, body io.Reader) (int, []byte) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if who != nil {
		req.Header.Set("Authorization", testkit.Token(e.t, who))
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

func (e *env) uploadURL(who *core.Record) string {
	e.t.Helper()
	s, b := e.do(who, "POST", "/api/objects/upload", nil)
	if s != 200 {
		e.t.Fatalf("upload url: %d %s", s, b)
	}
	var out struct{ UploadURL string }
	_ = json.Unmarshal(b, &out)
	return out.UploadURL
}

// send uploads img as who and claims it; it returns the photo id.
func (e *env) send(who *core.Record, img []byte, name, notes string) string {
	e.t.Helper()
	u := e.uploadURL(who)
	if s, b := e.do(who, "PUT", u, bytes.NewReader(img)); s != 200 {
		e.t.Fatalf("put: %d %s", s, b)
	}
	body, _ := json.Marshal(map[string]any{"filename": name, "url": strings.SplitN(u, "?", 2)[0], "notes": notes})
	s, b := e.do(who, "POST", "/api/photos/upload", bytes.NewReader(body))
	if s != 200 {
		e.t.Fatalf("claim: %d %s", s, b)
	}
	var p photos.Photo
	_ = json.Unmarshal(b, &p)
	return p.Id
}

func testJPEG(t testing.TB, w, h int, c color.Color) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// withExif inserts an APP1 Exif segment (orientation 6, a GPS IFD pointer and a marker
// string) right after the SOI of a JPEG.
func withExif(j []byte) []byte {
	var t bytes.Buffer
	t.WriteString("II*\x00")
	binary.Write(&t, binary.LittleEndian, uint32(8))
	binary.Write(&t, binary.LittleEndian, uint16(2))
	// orientation = 6 (rotate 90 CW)
	binary.Write(&t, binary.LittleEndian, []uint16{0x0112, 3})
	binary.Write(&t, binary.LittleEndian, uint32(1))
	binary.Write(&t, binary.LittleEndian, []uint16{6, 0})
	// GPS IFD pointer
	binary.Write(&t, binary.LittleEndian, []uint16{0x8825, 4})
	binary.Write(&t, binary.LittleEndian, uint32(1))
	binary.Write(&t, binary.LittleEndian, uint32(38))
	binary.Write(&t, binary.LittleEndian, uint32(0))
	t.WriteString("GPSLatitude=52.5200N SECRET-LOCATION")
	seg := append([]byte("Exif\x00\x00"), t.Bytes()...)
	var out bytes.Buffer
	out.Write(j[:2])
	out.Write([]byte{0xFF, 0xE1})
	binary.Write(&out, binary.BigEndian, uint16(len(seg)+2))
	out.Write(seg)
	out.Write(j[2:])
	return out.Bytes()
}

func testPNG(t testing.TB) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 20, 10))
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestPutSniffsTheType(t *testing.T) {
	e := newEnv(t)
	j := testJPEG(t, 40, 30, color.White)
	cases := []struct {
		name string
		body []byte
		want int
	}{
		{"text named .jpg", []byte("hello, this is not a picture at all\n"), 415},
		{"png", testPNG(t), 200},
		{"jpeg", j, 200},
		{"truncated jpeg", j[:len(j)/2], 415},
		{"empty", nil, 415},
		{"gif", []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), 415},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, b := e.do(e.c.Driver, "PUT", e.uploadURL(e.c.Driver), bytes.NewReader(tc.body))
			if s != tc.want {
				t.Fatalf("got %d %s, want %d", s, b, tc.want)
			}
		})
	}
}

// zeros is an endless reader of a JPEG-looking stream, never held in memory whole.
type endless struct{ n int64 }

func (r *endless) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > r.n {
		p = p[:r.n]
	}
	for i := range p {
		p[i] = 0xFF
	}
	r.n -= int64(len(p))
	return len(p), nil
}

func TestPutCapsTheSize(t *testing.T) {
	e := newEnv(t)
	s, b := e.do(e.c.Driver, "PUT", e.uploadURL(e.c.Driver), io.NopCloser(&endless{n: 11 << 20}))
	if s != 413 || !strings.Contains(string(b), photos.MsgTooLarge) {
		t.Fatalf("11 MB: %d %s", s, b)
	}
}

func TestPutRefusesHugeDimensions(t *testing.T) {
	e := newEnv(t)
	// a PNG header claiming 20000x20000 pixels
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	binary.Write(&b, binary.BigEndian, uint32(13))
	var ihdr bytes.Buffer
	ihdr.WriteString("IHDR")
	binary.Write(&ihdr, binary.BigEndian, []uint32{20000, 20000})
	ihdr.Write([]byte{8, 6, 0, 0, 0})
	b.Write(ihdr.Bytes())
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(ihdr.Bytes()))
	if s, body := e.do(e.c.Driver, "PUT", e.uploadURL(e.c.Driver), &b); s != 413 {
		t.Fatalf("got %d %s", s, body)
	}
}

func TestExifIsRemovedAndPictureTurnedUpright(t *testing.T) {
	e := newEnv(t)
	src := withExif(testJPEG(t, 40, 20, color.RGBA{200, 10, 10, 255}))
	if !bytes.Contains(src, []byte("SECRET-LOCATION")) {
		t.Fatal("test image lacks its EXIF")
	}
	id := e.send(e.c.Driver, src, "scooter.jpg", "front wheel")
	s, stored := e.do(e.c.Admin, "GET", "/api/photos/"+id+"/image", nil)
	if s != 200 {
		t.Fatalf("image: %d", s)
	}
	if bytes.Contains(stored, []byte("Exif")) || bytes.Contains(stored, []byte("SECRET-LOCATION")) {
		t.Fatal("stored image still carries EXIF")
	}
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(stored))
	if err != nil || cfg.Width != 20 || cfg.Height != 40 {
		t.Fatalf("stored image %dx%d (%v), want 20x40 (rotated upright)", cfg.Width, cfg.Height, err)
	}
	if s, thumb := e.do(e.c.Admin, "GET", "/api/photos/"+id+"/image?thumb=1", nil); s != 200 || len(thumb) == 0 {
		t.Fatalf("thumb: %d", s)
	}
}

func TestUploadURLIsOneTimeAndBound(t *testing.T) {
	e := newEnv(t)
	img := testJPEG(t, 8, 8, color.Black)
	u := e.uploadURL(e.c.Driver)
	if s, b := e.do(e.c.Liaison, "PUT", u, bytes.NewReader(img)); s != 403 {
		t.Fatalf("other user's PUT: %d %s", s, b)
	}
	if s, _ := e.do(nil, "PUT", u, bytes.NewReader(img)); s != 401 {
		t.Fatalf("guest PUT: %d", s)
	}
	if s, b := e.do(e.c.Driver, "PUT", u, bytes.NewReader(img)); s != 200 {
		t.Fatalf("PUT: %d %s", s, b)
	}
	if s, b := e.do(e.c.Driver, "PUT", u, bytes.NewReader(img)); s != 409 {
		t.Fatalf("reuse: %d %s", s, b)
	}
	claim := `{"filename":"a.jpg","url":"` + strings.SplitN(u, "?", 2)[0] + `","notes":null}`
	if s, b := e.do(e.c.Admin, "POST", "/api/photos/upload", strings.NewReader(claim)); s != 403 {
		t.Fatalf("claim by another user: %d %s", s, b)
	}
	if s, b := e.do(e.c.Driver, "POST", "/api/photos/upload", strings.NewReader(claim)); s != 200 {
		t.Fatalf("claim: %d %s", s, b)
	}
	if s, b := e.do(e.c.Driver, "POST", "/api/photos/upload", strings.NewReader(claim)); s != 409 {
		t.Fatalf("second claim: %d %s", s, b)
	}
	tampered := strings.Replace(u, "exp=", "exp=1", 1)
	if s, _ := e.do(e.c.Driver, "PUT", tampered, bytes.NewReader(img)); s != 403 {
		t.Fatalf("tampered: %d", s)
	}
	expired, err := photos.NewUploadURL(e.app, e.c.Driver.Id, time.Now().Add(-photos.UploadTTL-time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if s, b := e.do(e.c.Driver, "PUT", expired, bytes.NewReader(img)); s != 403 || !strings.Contains(string(b), photos.MsgURLExpired) {
		t.Fatalf("expired: %d %s", s, b)
	}
}

func TestRoles(t *testing.T) {
	e := newEnv(t)
	other := testkit.CreateUser(t, e.app, "driver", "approved")
	mine := e.send(e.c.Driver, testJPEG(t, 8, 8, color.White), "mine.jpg", "")
	theirs := e.send(other, testJPEG(t, 8, 8, color.Black), "theirs.jpg", "")
	rows := []struct {
		who                    string
		upload, list, theirImg int
		sees                   int
		del                    int
	}{
		{testkit.Guest, 401, 401, 401, 0, 401},
		{testkit.Pending, 403, 403, 403, 0, 403},
		{testkit.Driver, 200, 200, 404, 1, 403},
		{testkit.Liaison, 200, 200, 200, 2, 404},
		{testkit.Admin, 200, 200, 200, 2, 404},
		{testkit.Master, 200, 200, 200, 2, 404},
	}
	for _, r := range rows {
		t.Run(r.who, func(t *testing.T) {
			who := e.c.Pick(r.who)
			if s, _ := e.do(who, "POST", "/api/objects/upload", nil); s != r.upload {
				t.Errorf("upload url: %d, want %d", s, r.upload)
			}
			s, b := e.do(who, "GET", "/api/photos", nil)
			if s != r.list {
				t.Errorf("list: %d, want %d", s, r.list)
			}
			if s == 200 {
				var list []photos.Photo
				_ = json.Unmarshal(b, &list)
				if len(list) != r.sees {
					t.Errorf("sees %d photos, want %d", len(list), r.sees)
				}
			}
			if s, _ := e.do(who, "GET", "/api/photos/"+theirs+"/image", nil); s != r.theirImg {
				t.Errorf("their image: %d, want %d", s, r.theirImg)
			}
			if s, _ := e.do(who, "DELETE", "/api/photos/nosuchphoto1234", nil); s != r.del {
				t.Errorf("delete: %d, want %d", s, r.del)
			}
		})
	}
	if s, _ := e.do(e.c.Driver, "GET", "/api/photos/"+mine+"/image", nil); s != 200 {
		t.Fatalf("own image: %d", s)
	}
	if s, b := e.do(e.c.Liaison, "DELETE", "/api/photos/"+theirs, nil); s != 200 || !strings.Contains(string(b), "Photo has been completely removed from all systems") {
		t.Fatalf("liaison delete: %d %s", s, b)
	}
}

func TestDuplicateIsFlagged(t *testing.T) {
	e := newEnv(t)
	img := testJPEG(t, 16, 16, color.RGBA{0, 100, 0, 255})
	first := e.send(e.c.Driver, img, "a.jpg", "")
	second := e.send(e.c.Driver, img, "b.jpg", "again")
	_, b := e.do(e.c.Admin, "GET", "/api/photos", nil)
	var list []photos.Photo
	_ = json.Unmarshal(b, &list)
	if len(list) != 2 || list[0].Id != second || list[0].DuplicateOf == nil || *list[0].DuplicateOf != first || list[1].DuplicateOf != nil {
		t.Fatalf("list: %s", b)
	}
	if list[0].UploadedByUser == nil || list[0].UploadedByUser.Email != e.c.Driver.Email() || list[0].Notes != "again" {
		t.Fatalf("uploader: %s", b)
	}
}

func TestMassDeleteIsAllOrNothing(t *testing.T) {
	e := newEnv(t)
	a := e.send(e.c.Driver, testJPEG(t, 8, 8, color.White), "a.jpg", "")
	b := e.send(e.c.Driver, testJPEG(t, 9, 9, color.White), "b.jpg", "")
	body := `{"photoIds":["` + a + `","nosuchphoto1234","` + b + `"]}`
	if s, out := e.do(e.c.Admin, "DELETE", "/api/photos/mass", strings.NewReader(body)); s != 404 {
		t.Fatalf("bad id: %d %s", s, out)
	}
	if n, _ := e.app.CountRecords(schema.Photos); n != 2 {
		t.Fatalf("%d photos left after a refused mass delete", n)
	}
	time.Sleep(300 * time.Millisecond) // PocketBase deletes files in the background
	for _, id := range []string{a, b} {
		if s, _ := e.do(e.c.Admin, "GET", "/api/photos/"+id+"/image", nil); s != 200 {
			t.Fatalf("file of %s gone after a refused mass delete: %d", id, s)
		}
	}
	if s, out := e.do(e.c.Admin, "DELETE", "/api/photos/mass", strings.NewReader(`{"photoIds":[]}`)); s != 400 {
		t.Fatalf("empty: %d %s", s, out)
	}
	body = `{"photoIds":["` + a + `","` + b + `"]}`
	if s, out := e.do(e.c.Liaison, "DELETE", "/api/photos/mass", strings.NewReader(body)); s != 200 || !strings.Contains(string(out), "Successfully deleted 2 photos") {
		t.Fatalf("mass delete: %d %s", s, out)
	}
	if n, _ := e.app.CountRecords(schema.Photos); n != 0 {
		t.Fatalf("%d photos left", n)
	}
	if s, _ := e.do(e.c.Driver, "DELETE", "/api/photos/mass", strings.NewReader(body)); s != 403 {
		t.Fatalf("driver mass delete: %d", s)
	}
}

// fileCount reports whether rec's file exists; after a delete PocketBase removes files in the
// background, so it waits up to 3 s for them to go.
func fileCount(t *testing.T, app core.App, rec *core.Record) bool {
	for i := 0; i < 30 && fileExists(t, app, rec); i++ {
		time.Sleep(100 * time.Millisecond)
	}
	return fileExists(t, app, rec)
}

func fileExists(t *testing.T, app core.App, rec *core.Record) bool {
	fsys, err := app.NewFilesystem()
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.Close()
	ok, _ := fsys.Exists(rec.BaseFilesPath() + "/" + rec.GetString(schema.PhotoFile))
	return ok
}

func TestCleanupRemovesOldUnclaimedUploads(t *testing.T) {
	e := newEnv(t)
	u := e.uploadURL(e.c.Driver)
	if s, b := e.do(e.c.Driver, "PUT", u, bytes.NewReader(testJPEG(t, 8, 8, color.White))); s != 200 {
		t.Fatalf("put: %d %s", s, b)
	}
	claimed := e.send(e.c.Driver, testJPEG(t, 9, 9, color.White), "kept.jpg", "")
	recs, _ := e.app.FindRecordsByFilter(schema.Photos, "claimed = false", "", 0, 0)
	if len(recs) != 1 || !fileExists(t, e.app, recs[0]) {
		t.Fatal("unclaimed upload not stored")
	}
	if n, err := photos.RemoveUnclaimed(e.app, time.Now()); err != nil || n != 0 {
		t.Fatalf("fresh upload removed: %d %v", n, err)
	}
	if n, err := photos.RemoveUnclaimed(e.app, time.Now().Add(25*time.Hour)); err != nil || n != 1 {
		t.Fatalf("removed %d %v", n, err)
	}
	if fileCount(t, e.app, recs[0]) {
		t.Fatal("file of the removed upload remains")
	}
	if _, err := e.app.FindRecordById(schema.Photos, claimed); err != nil {
		t.Fatal("claimed photo removed")
	}
}

func TestCleanSlateRemovesPhotos(t *testing.T) {
	e := newEnv(t)
	id := e.send(e.c.Driver, testJPEG(t, 8, 8, color.White), "a.jpg", "")
	rec, _ := e.app.FindRecordById(schema.Photos, id)
	if _, err := system.CleanSlate(e.app, inventory.Op{Actor: e.c.Master}); err != nil {
		t.Fatal(err)
	}
	if n, _ := e.app.CountRecords(schema.Photos); n != 0 {
		t.Fatalf("%d photos after clean slate", n)
	}
	if fileCount(t, e.app, rec) {
		t.Fatal("photo file remains after clean slate")
	}
}

func TestWebPKeepsPictureDropsMetadata(t *testing.T) {
	e := newEnv(t)
	src, err := os.ReadFile("testdata/blue-purple-pink.lossless.webp")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.Write(src)
	for _, ch := range []string{"EXIF", "XMP "} {
		payload := []byte("GPS SECRET-LOCATION")
		b.WriteString(ch)
		binary.Write(&b, binary.LittleEndian, uint32(len(payload)))
		b.Write(payload)
		b.WriteByte(0) // pad to even
	}
	withMeta := b.Bytes()
	binary.LittleEndian.PutUint32(withMeta[4:], uint32(len(withMeta)-8))
	id := e.send(e.c.Driver, withMeta, "scooter.webp", "")
	s, stored := e.do(e.c.Admin, "GET", "/api/photos/"+id+"/image", nil)
	if s != 200 || bytes.Contains(stored, []byte("SECRET-LOCATION")) {
		t.Fatalf("status %d, metadata kept: %v", s, bytes.Contains(stored, []byte("SECRET-LOCATION")))
	}
	if !bytes.Equal(stored, src) {
		t.Fatalf("stored WebP differs from the original without its chunks (%d vs %d bytes)", len(stored), len(src))
	}
}

// Headers are checked before anything decodes: over 50 MP, deeper than 8 bits or decoding to
// more than 100 MB is refused; a PNG's metadata chunks go without a decode.
func TestPutChecksTheHeaderBeforeDecoding(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		name   string
		img    []byte
		status int
		want   string
	}{
		{"8000×8000 grey PNG (64 MP)", bombs.PNG(8000, 8000, 8, bombs.Gray, false), 413, photos.MsgTooManyPix},
		{"7000×7000 16-bit PNG", bombs.PNG(7000, 7000, 16, bombs.RGBA, false), 415, photos.MsgBitDepth},
		{"6000×6000 RGBA PNG (144 MB decoded)", bombs.PNG(6000, 6000, 8, bombs.RGBA, true), 413, photos.MsgTooManyPix},
		{"7000×7000 lossless WebP (196 MB decoded)", bombs.WebPLossless(7000, 7000), 413, photos.MsgTooManyPix},
		{"16383×16383 lossy WebP", bombs.WebPLossy(16383, 16383), 413, photos.MsgTooManyPix},
	} {
		s, body := e.do(e.c.Driver, "PUT", e.uploadURL(e.c.Driver), bytes.NewReader(tc.img))
		if s != tc.status || !strings.Contains(string(body), tc.want) {
			t.Errorf("%s: %d %s, want %d %q", tc.name, s, body, tc.status, tc.want)
		}
	}
	// a 7000×7000 palette PNG is within the limits (49 MB decoded): kept without its text chunk
	src := bombs.PNG(7000, 7000, 8, bombs.Palette, false)
	text := []byte("tEXtComment\x00SECRET-LOCATION")
	var withText bytes.Buffer
	withText.Write(src[:33])
	withText.Write(binary.BigEndian.AppendUint32(nil, uint32(len(text)-4)))
	withText.Write(binary.BigEndian.AppendUint32(text, crc32.ChecksumIEEE(text)))
	withText.Write(src[33:])
	id := e.send(e.c.Driver, withText.Bytes(), "palette.png", "")
	s, stored := e.do(e.c.Admin, "GET", "/api/photos/"+id+"/image", nil)
	if s != 200 || bytes.Contains(stored, []byte("SECRET-LOCATION")) {
		t.Fatalf("stored palette PNG: %d, still has its text chunk: %v", s, bytes.Contains(stored, []byte("SECRET-LOCATION")))
	}
	if cfg, err := png.DecodeConfig(bytes.NewReader(stored)); err != nil || cfg.Width != 7000 {
		t.Fatalf("stored palette PNG: %v %v", cfg, err)
	}
	if s, thumb := e.do(e.c.Admin, "GET", "/api/photos/"+id+"/image?thumb=1", nil); s != 200 || len(thumb) == 0 {
		t.Fatalf("thumb: %d", s)
	}
}

// Deleting a driver keeps their photos (a broken scooter's, a damaged pack's incident): the
// list still shows them, under the driver's name and email kept on the photo, the image is
// still served, and another driver's photos are untouched. Was: the account's deletion
// cascaded to its photos and their files.
func TestDeletedUploadersPhotosStay(t *testing.T) {
	e := newEnv(t)
	gone := testkit.CreateUser(t, e.app, roles.Driver, roles.Approved)
	id := e.send(gone, testJPEG(t, 8, 8, color.White), "scooter-42.jpg", "Cracked housing")
	other := e.send(e.c.Driver, testJPEG(t, 9, 9, color.White), "mine.jpg", "")
	if err := users.Delete(e.app, e.c.Master, gone.Id); err != nil {
		t.Fatal(err)
	}
	rec, err := e.app.FindRecordById(schema.Photos, id)
	if err != nil {
		t.Fatalf("the deleted driver's photo is gone: %v", err)
	}
	time.Sleep(300 * time.Millisecond) // a deletion would remove the file in the background
	if !fileExists(t, e.app, rec) {
		t.Fatal("the deleted driver's photo file is gone")
	}
	if s, _ := e.do(e.c.Admin, "GET", "/api/photos/"+id+"/image", nil); s != 200 {
		t.Fatalf("image of the deleted driver's photo: %d", s)
	}
	s, b := e.do(e.c.Liaison, "GET", "/api/photos", nil)
	var list []photos.Photo
	if err := json.Unmarshal(b, &list); s != 200 || err != nil || len(list) != 2 {
		t.Fatalf("list: %d %s", s, b)
	}
	for _, p := range list {
		switch p.Id {
		case id:
			if p.UploadedBy != "" || p.UploadedByUser == nil || p.UploadedByUser.Email != gone.Email() ||
				p.UploadedByUser.FirstName != gone.GetString(schema.UserFirstName) || p.Notes != "Cracked housing" {
				t.Errorf("the deleted driver's photo: %+v %+v", p, p.UploadedByUser)
			}
		case other:
			if p.UploadedBy != e.c.Driver.Id || p.UploadedByUser == nil || p.UploadedByUser.Email != e.c.Driver.Email() {
				t.Errorf("another driver's photo: %+v", p)
			}
		}
	}
}

// A one-time upload URL stays used once its photo is deleted: within its 15 minutes the same
// URL cannot upload (409) nor claim the photo again; the cleanup job forgets it once expired.
// Was: an admin deleted a driver's photo and the same URL brought it back, claimed.
func TestUploadURLStaysUsedAfterItsPhotoIsDeleted(t *testing.T) {
	e := newEnv(t)
	img := testJPEG(t, 8, 8, color.Black)
	u := e.uploadURL(e.c.Driver)
	if s, b := e.do(e.c.Driver, "PUT", u, bytes.NewReader(img)); s != 200 {
		t.Fatalf("PUT: %d %s", s, b)
	}
	claim := `{"filename":"a.jpg","url":"` + strings.SplitN(u, "?", 2)[0] + `","notes":null}`
	s, b := e.do(e.c.Driver, "POST", "/api/photos/upload", strings.NewReader(claim))
	var p photos.Photo
	if err := json.Unmarshal(b, &p); s != 200 || err != nil {
		t.Fatalf("claim: %d %s", s, b)
	}
	if s, b := e.do(e.c.Admin, "DELETE", "/api/photos/"+p.Id, nil); s != 200 {
		t.Fatalf("delete: %d %s", s, b)
	}
	if s, b := e.do(e.c.Driver, "PUT", u, bytes.NewReader(img)); s != 409 || !strings.Contains(string(b), photos.MsgURLUsed) {
		t.Fatalf("the deleted photo's URL again: %d %s", s, b)
	}
	if s, b := e.do(e.c.Driver, "POST", "/api/photos/upload", strings.NewReader(claim)); s != 404 {
		t.Fatalf("claim of the deleted photo again: %d %s", s, b)
	}
	if n, _ := e.app.CountRecords(schema.Photos); n != 0 {
		t.Fatalf("%d photos after the deleted one's URL was used again", n)
	}
	count := func() int {
		var n int
		if err := e.app.DB().NewQuery("SELECT COUNT(*) FROM " + schema.PhotoUploadsUsed).Row(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if _, err := photos.RemoveUnclaimed(e.app, time.Now()); err != nil || count() != 1 {
		t.Fatalf("a used URL not expired yet forgotten (%d rows, %v)", count(), err)
	}
	if _, err := photos.RemoveUnclaimed(e.app, time.Now().Add(photos.UploadTTL+time.Minute)); err != nil || count() != 0 {
		t.Fatalf("an expired used URL kept (%d rows, %v)", count(), err)
	}
}
