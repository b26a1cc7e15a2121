package terms

import (
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/events"
	"swapbay/lib/records"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
)

// Messages of the terms editor (DESIGN.md §7).
const (
	MsgVersionRequired  = "Version is required"
	MsgVersionTooLong   = "Version can be at most 50 characters"
	MsgVersionTaken     = "A terms version with this name already exists"
	MsgTitleRequired    = "Title is required"
	MsgTitleTooLong     = "Title can be at most 300 characters"
	MsgEffectiveDate    = "Effective date must be a date (YYYY-MM-DD)"
	MsgContentRequired  = "Content is required"
	MsgContentTooLong   = "Content is too long"
	MsgVersionSigned    = "This version has signed agreements; create a new version instead."
	MsgVersionNotFound  = "Terms version not found"
	MsgVersionActivated = "Terms version activated"
	MsgVersionCreated   = "Terms version created"
	MsgVersionUpdated   = "Terms version updated"
)

// TermsUpdated (ours) says the terms versions changed, or an agreement's PDF was made or failed:
// open terms editors, agreements tables and Users pages refetch.
const TermsUpdated = "TERMS_UPDATED"

// VersionJSON is a terms version as the editor shows it.
type VersionJSON struct {
	Id            string `json:"id"`
	Version       string `json:"version"`
	Title         string `json:"title"`
	Content       string `json:"content"`
	EffectiveDate string `json:"effectiveDate"`
	IsActive      bool   `json:"isActive"`
	SignedCount   int    `json:"signedCount"` // agreements signed under it: > 0 makes it immutable
	Created       string `json:"created"`
	Updated       string `json:"updated"`
}

func toVersionJSON(rec *core.Record, signed int) VersionJSON {
	return VersionJSON{Id: rec.Id, Version: rec.GetString(schema.TermsVersion), Title: rec.GetString(schema.TermsTitle),
		Content: rec.GetString(schema.TermsContent), EffectiveDate: rec.GetString(schema.TermsEffectiveDate),
		IsActive: rec.GetBool(schema.TermsIsActive), SignedCount: signed,
		Created: rec.GetDateTime(schema.Created).Time().UTC().Format(time.RFC3339),
		Updated: rec.GetDateTime(schema.Updated).Time().UTC().Format(time.RFC3339)}
}

// signedCounts returns how many agreements each terms version has.
func signedCounts(app core.App) (map[string]int, error) {
	var rows []struct {
		Terms string `db:"terms"`
		N     int    `db:"n"`
	}
	if err := app.DB().NewQuery("SELECT terms, COUNT(*) AS n FROM " + schema.Agreements + " GROUP BY terms").All(&rows); err != nil {
		return nil, err
	}
	out := make(map[string]int, len(rows))
	for _, r := range rows {
		out[r.Terms] = r.N
	}
	return out, nil
}

// ListVersions returns every terms version, the active one first, then the newest.
func ListVersions(app core.App) ([]VersionJSON, error) {
	var recs []*core.Record
	if err := app.RecordQuery(schema.TermsVersions).OrderBy(schema.TermsIsActive+" DESC", schema.Created+" DESC").All(&recs); err != nil {
		return nil, err
	}
	counts, err := signedCounts(app)
	if err != nil {
		return nil, err
	}
	out := make([]VersionJSON, len(recs))
	for i, r := range recs {
		out[i] = toVersionJSON(r, counts[r.Id])
	}
	return out, nil
}

// VersionInput is a terms version as the editor sends it.
type VersionInput struct {
	Version       string `json:"version"`
	Title         string `json:"title"`
	Content       string `json:"content"`
	EffectiveDate string `json:"effectiveDate"`
}

// clean checks in and returns it with the content sanitised (DESIGN.md §7).
func (in VersionInput) clean() (VersionInput, error) {
	in.Version = strings.TrimSpace(reqx.StripControls(in.Version))
	in.Title = strings.TrimSpace(reqx.StripControls(in.Title))
	in.EffectiveDate = strings.TrimSpace(in.EffectiveDate)
	switch {
	case in.Version == "":
		return in, apierr.Invalid("version", MsgVersionRequired)
	case len([]rune(in.Version)) > 50:
		return in, apierr.Invalid("version", MsgVersionTooLong)
	case in.Title == "":
		return in, apierr.Invalid("title", MsgTitleRequired)
	case len([]rune(in.Title)) > 300:
		return in, apierr.Invalid("title", MsgTitleTooLong)
	}
	if d, err := time.Parse(time.DateOnly, in.EffectiveDate); err != nil || d.Format(time.DateOnly) != in.EffectiveDate {
		return in, apierr.Invalid("effectiveDate", MsgEffectiveDate)
	}
	if len(in.Content) > 2_000_000 {
		return in, apierr.Invalid("content", MsgContentTooLong)
	}
	in.Content = Sanitize(in.Content)
	if TextOf(in.Content) == "" {
		return in, apierr.Invalid("content", MsgContentRequired)
	}
	if len(in.Content) > 500_000 {
		return in, apierr.Invalid("content", MsgContentTooLong)
	}
	return in, nil
}

// versionTaken reports whether another version (not id) is named name.
func versionTaken(app core.App, name, id string) (bool, error) {
	var n int
	err := app.DB().NewQuery("SELECT COUNT(*) FROM " + schema.TermsVersions + " WHERE version = {:v} COLLATE NOCASE AND id != {:id}").
		Bind(dbx.Params{"v": name, "id": id}).Row(&n)
	return n > 0, err
}

// CreateVersion saves a new, inactive terms version.
func CreateVersion(app core.App, in VersionInput) (VersionJSON, error) {
	return saveVersion(app, "", in)
}

// SignedCount returns how many agreements were signed on version id (a signed version is
// immutable and is never deleted).
func SignedCount(app core.App, id string) (int, error) {
	var n int
	err := app.DB().Select("COUNT(*)").From(schema.Agreements).Where(dbx.HashExp{schema.AgreementTerms: id}).Row(&n)
	return n, err
}

func setVersion(rec *core.Record, in VersionInput) {
	rec.Set(schema.TermsVersion, in.Version)
	rec.Set(schema.TermsTitle, in.Title)
	rec.Set(schema.TermsContent, in.Content)
	rec.Set(schema.TermsEffectiveDate, in.EffectiveDate)
}

// UpdateVersion changes version id; a version someone has signed is immutable (409).
func UpdateVersion(app core.App, id string, in VersionInput) (VersionJSON, error) {
	return saveVersion(app, id, in)
}

// saveVersion writes in to version id, or to a new inactive version when id is "", in one
// transaction; a version number another version has is refused (409).
func saveVersion(app core.App, id string, in VersionInput) (VersionJSON, error) {
	in, err := in.clean()
	if err != nil {
		return VersionJSON{}, err
	}
	var out VersionJSON
	err = app.RunInTransaction(func(txApp core.App) error {
		rec, err := editableVersion(txApp, id)
		if err != nil {
			return err
		}
		if taken, err := versionTaken(txApp, in.Version, id); err != nil {
			return err
		} else if taken {
			return apierr.Conflict(MsgVersionTaken)
		}
		setVersion(rec, in)
		if err := txApp.Save(rec); err != nil {
			return err
		}
		out = toVersionJSON(rec, 0)
		events.Publish(txApp, TermsUpdated)
		return nil
	})
	return out, err
}

// editableVersion returns version id, refused when there is none (404) or someone has signed
// it (409); or a new inactive version when id is "".
func editableVersion(txApp core.App, id string) (*core.Record, error) {
	if id == "" {
		rec, err := records.New(txApp, schema.TermsVersions)
		if err != nil {
			return nil, err
		}
		rec.Set(schema.TermsIsActive, false)
		return rec, nil
	}
	rec, err := txApp.FindRecordById(schema.TermsVersions, id)
	if err != nil {
		return nil, apierr.NotFound(MsgVersionNotFound)
	}
	if signed, err := SignedCount(txApp, id); err != nil {
		return nil, err
	} else if signed > 0 {
		return nil, apierr.Conflict(MsgVersionSigned)
	}
	return rec, nil
}

// Activate makes version id the one active version, in one transaction (the partial unique
// index on isActive refuses a second active row whatever the interleaving).
func Activate(app core.App, id string) (VersionJSON, error) {
	var out VersionJSON
	err := app.RunInTransaction(func(txApp core.App) error {
		rec, err := txApp.FindRecordById(schema.TermsVersions, id)
		if err != nil {
			return apierr.NotFound(MsgVersionNotFound)
		}
		if _, err := txApp.DB().NewQuery("UPDATE " + schema.TermsVersions + " SET isActive = FALSE, updated = {:now} WHERE isActive = TRUE AND id != {:id}").
			Bind(dbx.Params{"id": id, "now": clock.Now().UTC().Format("2006-01-02 15:04:05.000Z")}).Execute(); err != nil {
			return err
		}
		rec.Set(schema.TermsIsActive, true)
		if err := txApp.Save(rec); err != nil {
			return err
		}
		signed, _ := SignedCount(txApp, id)
		out = toVersionJSON(rec, signed)
		events.Publish(txApp, TermsUpdated)
		return nil
	})
	return out, err
}
