package photos

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/filesystem"
	"github.com/pocketbase/pocketbase/tools/security"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/apierr"
	"swapbay/lib/records"
	"swapbay/lib/reqx"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
)

// UploadTTL is how long a signed upload URL stays valid.
const UploadTTL = 15 * time.Minute

// UnclaimedTTL is how long an upload waits to be claimed before the cleanup job removes it.
const UnclaimedTTL = 24 * time.Hour

// UploadPath is the path prefix of signed upload URLs (PUT UploadPath+id?exp=..&sig=..).
const UploadPath = "/api/objects/uploads/"

// Messages of the upload and claim routes.
const (
	MsgURLInvalid     = "Upload URL is not valid"
	MsgURLExpired     = "Upload URL has expired"
	MsgURLUsed        = "Upload URL has already been used"
	MsgUploadNotFound = "Upload not found"
	MsgUploadNotYours = "This upload belongs to another user"
	MsgClaimed        = "This upload has already been claimed"
	MsgPhotoNotFound  = "Photo not found"
	MsgNoPhotoIds     = "Select at least one photo"
	MsgURLRequired    = "Upload URL is required"
)

const idAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789"

// secret is the HMAC key of upload URLs: derived from the users collection's token secret, a
// server-side random value PocketBase stores with the collection, so nothing new is kept.
func secret(app core.App) ([]byte, error) {
	users, err := app.FindCachedCollectionByNameOrId(schema.Users)
	if err != nil {
		return nil, err
	}
	h := sha256.Sum256([]byte("swapbay-photo-upload\x00" + users.AuthToken.Secret))
	return h[:], nil
}

func sign(key []byte, id, userId string, exp int64) string {
	m := hmac.New(sha256.New, key)
	fmt.Fprintf(m, "%s\x00%s\x00%d", id, userId, exp)
	return hex.EncodeToString(m.Sum(nil))
}

// NewUploadURL returns a one-time upload URL for userId, valid UploadTTL from now.
func NewUploadURL(app core.App, userId string, now time.Time) (string, error) {
	key, err := secret(app)
	if err != nil {
		return "", err
	}
	id := security.RandomStringWithAlphabet(15, idAlphabet)
	exp := now.Add(UploadTTL).Unix()
	q := url.Values{"exp": {strconv.FormatInt(exp, 10)}, "sig": {sign(key, id, userId, exp)}}
	return UploadPath + id + "?" + q.Encode(), nil
}

// Receive checks a signed upload (id, exp, sig) for userId, streams body through process and
// stores the result as an unclaimed photo record with that id. A URL works once, also after
// its photo was deleted (schema.PhotoUploadsUsed).
func Receive(app core.App, userId, id, expStr, sig string, body io.Reader, now time.Time) (*core.Record, error) {
	key, err := secret(app)
	if err != nil {
		return nil, err
	}
	exp, err := strconv.ParseInt(expStr, 10, 64)
	if err != nil || len(id) != 15 || !hmac.Equal([]byte(sig), []byte(sign(key, id, userId, exp))) {
		return nil, apierr.Forbidden(MsgURLInvalid)
	}
	if now.Unix() > exp {
		return nil, apierr.Forbidden(MsgURLExpired)
	}
	if used, err := uploadUsed(app, id); err != nil {
		return nil, err
	} else if used {
		return nil, apierr.Conflict(MsgURLUsed)
	}
	dir := filepath.Join(app.DataDir(), ".pb_temp_to_delete") // PocketBase's own scratch dir
	if err := os.MkdirAll(dir, os.ModePerm); err != nil {
		return nil, err
	}
	c, err := process(body, dir)
	if err != nil {
		return nil, err
	}
	defer os.Remove(c.path)
	f, err := filesystem.NewFileFromPath(c.path)
	if err != nil {
		return nil, err
	}
	f.OriginalName = "photo" + c.ext
	rec, err := records.New(app, schema.Photos)
	if err != nil {
		return nil, err
	}
	rec.Id = id
	rec.Set(schema.PhotoFile, f)
	rec.Set(schema.PhotoUploadedBy, userId)
	rec.Set(schema.PhotoSHA256, c.sha256)
	rec.Set(schema.PhotoContentType, c.contentType)
	rec.Set(schema.PhotoClaimed, false)
	// the URL is marked used with the photo's save: it stays used once the photo is deleted
	err = app.RunInTransaction(func(tx core.App) error {
		res, err := tx.DB().NewQuery("INSERT INTO {{" + schema.PhotoUploadsUsed + "}} (id, [[" + schema.PhotoUploadUsedExp + "]]) VALUES ({:id}, {:exp}) ON CONFLICT(id) DO NOTHING").
			Bind(dbx.Params{"id": id, "exp": exp}).Execute()
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return apierr.Conflict(MsgURLUsed) // a concurrent PUT of the same URL won
		}
		return tx.Save(rec)
	})
	if err != nil {
		if _, findErr := app.FindRecordById(schema.Photos, id); findErr == nil {
			return nil, apierr.Conflict(MsgURLUsed) // a concurrent PUT of the same URL won
		}
		return nil, err
	}
	return rec, nil
}

// uploadUsed reports whether the upload id was used already (its photo saved, deleted since or
// not: schema.PhotoUploadsUsed; or a photo with that id, saved before the table existed).
func uploadUsed(app core.App, id string) (bool, error) {
	var n int
	if err := app.DB().NewQuery("SELECT COUNT(*) FROM {{" + schema.PhotoUploadsUsed + "}} WHERE id = {:id}").Bind(dbx.Params{"id": id}).Row(&n); err != nil {
		return false, err
	}
	if n > 0 {
		return true, nil
	}
	_, err := app.FindRecordById(schema.Photos, id)
	return err == nil, nil
}

// ClaimForm is the body of POST /api/photos/upload.
type ClaimForm struct {
	Filename string  `json:"filename"`
	URL      string  `json:"url"`
	Notes    *string `json:"notes"`
	// OccurredAt is the driver's tap (RFC 3339, bounded by reqx.OccurredAt); absent: the claim time.
	OccurredAt string `json:"occurredAt"`
}

// Claim turns userId's unclaimed upload named by f.URL (the upload URL without its query)
// into a photo with f's filename and notes, flagged duplicateOf the earliest photo with the
// same SHA-256.
func Claim(app core.App, userId string, f ClaimForm, now time.Time) (*Photo, error) {
	raw := strings.TrimSpace(f.URL)
	if raw == "" {
		return nil, apierr.Invalid("url", MsgURLRequired)
	}
	u, err := url.Parse(raw)
	if err != nil || !strings.HasPrefix(u.Path, UploadPath) {
		return nil, apierr.Invalid("url", MsgURLInvalid)
	}
	id := strings.TrimPrefix(u.Path, UploadPath)
	name := strings.TrimSpace(reqx.StripControls(filepath.Base(strings.ReplaceAll(f.Filename, "\\", "/"))))
	if name == "" || name == "." || name == "/" {
		name = "photo"
	}
	if len([]rune(name)) > 255 {
		name = string([]rune(name)[:255])
	}
	taken, err := reqx.OccurredAt(f.OccurredAt)
	if err != nil {
		return nil, err
	}
	if taken.IsZero() {
		taken = now
	}
	notes := ""
	if f.Notes != nil {
		if notes, err = reqx.Notes("notes", *f.Notes, ""); err != nil {
			return nil, err
		}
	}
	var rec *core.Record
	err = app.RunInTransaction(func(tx core.App) error {
		rec, err = tx.FindRecordById(schema.Photos, id)
		if err != nil {
			return apierr.NotFound(MsgUploadNotFound)
		}
		if rec.GetString(schema.PhotoUploadedBy) != userId {
			return apierr.Forbidden(MsgUploadNotYours)
		}
		if rec.GetBool(schema.PhotoClaimed) {
			return apierr.Conflict(MsgClaimed)
		}
		first, err := tx.FindFirstRecordByFilter(schema.Photos,
			"sha256 = {:sha} && claimed = true && id != {:id}", dbx.Params{"sha": rec.GetString(schema.PhotoSHA256), "id": id})
		if err == nil {
			if orig := first.GetString(schema.PhotoDuplicateOf); orig != "" {
				rec.Set(schema.PhotoDuplicateOf, orig)
			} else {
				rec.Set(schema.PhotoDuplicateOf, first.Id)
			}
		}
		rec.Set(schema.PhotoFilename, name)
		rec.Set(schema.PhotoNotes, notes)
		rec.Set(schema.PhotoClaimed, true)
		rec.Set(schema.PhotoUploadedAt, now.UTC())
		rec.Set(schema.PhotoTakenAt, taken.UTC())
		return tx.Save(rec)
	})
	if err != nil {
		return nil, err
	}
	list, err := toPhotos(app, []*core.Record{rec})
	if err != nil {
		return nil, err
	}
	return &list[0], nil
}

// Uploader is the user shown with a photo.
type Uploader struct {
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Email     string `json:"email"`
}

// Photo is one photo as the API answers it.
type Photo struct {
	Id             string    `json:"id"`
	Filename       string    `json:"filename"`
	Notes          string    `json:"notes"`
	UploadedAt     string    `json:"uploadedAt"`
	TakenAt        string    `json:"takenAt"` // the driver's tap; uploadedAt is when it was claimed
	UploadedBy     string    `json:"uploadedBy"`
	UploadedByUser *Uploader `json:"uploadedByUser"`
	SHA256         string    `json:"sha256"`
	DuplicateOf    *string   `json:"duplicateOf"`
}

// CanSeeAll reports whether role sees every photo (admins and the liaison) rather than its own.
func CanSeeAll(role string) bool {
	return roles.IsAdmin(role) || role == roles.Liaison
}

// List returns claimed photos, newest first: all of them when all is set, else userId's.
func List(app core.App, userId string, all bool) ([]Photo, error) {
	filter, params := "claimed = true", dbx.Params{}
	if !all {
		filter += " && uploadedBy = {:u}"
		params["u"] = userId
	}
	recs, err := app.FindRecordsByFilter(schema.Photos, filter, "-uploadedAt,-created", 0, 0, params)
	if err != nil {
		return nil, err
	}
	return toPhotos(app, recs)
}

func toPhotos(app core.App, recs []*core.Record) ([]Photo, error) {
	ids := make([]string, 0, len(recs))
	for _, r := range recs {
		ids = append(ids, r.GetString(schema.PhotoUploadedBy))
	}
	users, err := app.FindRecordsByIds(schema.Users, ids)
	if err != nil {
		return nil, err
	}
	byId := map[string]*Uploader{}
	for _, u := range users {
		byId[u.Id] = &Uploader{FirstName: u.GetString(schema.UserFirstName), LastName: u.GetString(schema.UserLastName), Email: u.Email()}
	}
	out := make([]Photo, 0, len(recs))
	for _, r := range recs {
		uploader := byId[r.GetString(schema.PhotoUploadedBy)]
		if uploader == nil && r.GetString(schema.PhotoUploadedBy) == "" {
			// the uploader's account was deleted: the name kept on the photo
			uploader = &Uploader{FirstName: r.GetString(schema.PhotoUploaderFirstName), LastName: r.GetString(schema.PhotoUploaderLastName),
				Email: r.GetString(schema.PhotoUploaderEmail)}
		}
		p := Photo{Id: r.Id, Filename: r.GetString(schema.PhotoFilename), Notes: r.GetString(schema.PhotoNotes),
			UploadedAt: r.GetDateTime(schema.PhotoUploadedAt).Time().UTC().Format(time.RFC3339Nano),
			TakenAt:    takenAt(r).Format(time.RFC3339Nano),
			UploadedBy: r.GetString(schema.PhotoUploadedBy), UploadedByUser: uploader,
			SHA256: r.GetString(schema.PhotoSHA256)}
		if d := r.GetString(schema.PhotoDuplicateOf); d != "" {
			p.DuplicateOf = &d
		}
		out = append(out, p)
	}
	return out, nil
}

// Find returns the claimed photo id when the viewer may see it (all, or its own).
func Find(app core.App, id, userId string, all bool) (*core.Record, error) {
	rec, err := app.FindRecordById(schema.Photos, id)
	if err != nil || !rec.GetBool(schema.PhotoClaimed) || (!all && rec.GetString(schema.PhotoUploadedBy) != userId) {
		return nil, apierr.NotFound(MsgPhotoNotFound)
	}
	return rec, nil
}

// Delete removes the photos ids and their files, all or nothing: one unknown id deletes none.
func Delete(app core.App, ids []string) (int, error) {
	if len(ids) == 0 {
		return 0, apierr.Invalid("photoIds", MsgNoPhotoIds)
	}
	if len(ids) > reqx.MaxCount {
		return 0, apierr.Invalid("photoIds", "Too many photos")
	}
	seen := map[string]bool{}
	err := app.RunInTransaction(func(tx core.App) error {
		for _, id := range ids {
			if seen[id] {
				continue
			}
			seen[id] = true
			rec, err := tx.FindRecordById(schema.Photos, id)
			if err != nil || !rec.GetBool(schema.PhotoClaimed) {
				return apierr.NotFound(MsgPhotoNotFound)
			}
			if err := tx.Delete(rec); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return len(seen), nil
}

// RemoveUnclaimed deletes uploads never claimed within UnclaimedTTL of now, with their files.
func RemoveUnclaimed(app core.App, now time.Time) (int, error) {
	cutoff := now.Add(-UnclaimedTTL).UTC().Format(types.DefaultDateLayout)
	recs, err := app.FindRecordsByFilter(schema.Photos, "claimed = false && created < {:cutoff}", "", 0, 0, dbx.Params{"cutoff": cutoff})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, r := range recs {
		if err := app.Delete(r); err != nil {
			return n, err
		}
		n++
	}
	// a used URL past its expiry is refused by its expiry: its row may go
	if _, err := app.DB().NewQuery("DELETE FROM {{" + schema.PhotoUploadsUsed + "}} WHERE [[" + schema.PhotoUploadUsedExp + "]] < {:now}").
		Bind(dbx.Params{"now": now.Unix()}).Execute(); err != nil {
		return n, err
	}
	return n, nil
}

// DeleteAll removes every photo (claimed or not) and its file; clean slate calls it with the
// transaction's app, and PocketBase deletes the files after the commit.
func DeleteAll(txApp core.App) error {
	recs, err := txApp.FindAllRecords(schema.Photos)
	if err != nil {
		return err
	}
	for _, r := range recs {
		if err := txApp.Delete(r); err != nil {
			return err
		}
	}
	return nil
}

// KeepFormerUploader writes user's name and email on each of their photos, in the transaction
// that deletes the account (users.Delete): the photos stay (evidence of a broken scooter or a
// damaged pack's incident), their uploadedBy cleared by the deletion, shown with the name kept.
func KeepFormerUploader(txApp core.App, user *core.Record) error {
	_, err := txApp.DB().Update(schema.Photos, dbx.Params{
		schema.PhotoUploaderFirstName: user.GetString(schema.UserFirstName),
		schema.PhotoUploaderLastName:  user.GetString(schema.UserLastName),
		schema.PhotoUploaderEmail:     user.Email(),
	}, dbx.HashExp{schema.PhotoUploadedBy: user.Id}).Execute()
	return err
}

// takenAt is the photo's tap time; photos claimed before the field existed have their claim time.
func takenAt(r *core.Record) time.Time {
	if t := r.GetDateTime(schema.PhotoTakenAt); !t.IsZero() {
		return t.Time().UTC()
	}
	return r.GetDateTime(schema.PhotoUploadedAt).Time().UTC()
}
