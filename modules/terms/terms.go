package terms

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/filesystem"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/schema"
	"swapbay/lib/txutil"
)

// ErrNoActiveTerms means no terms version is active, so nobody can sign up.
var ErrNoActiveTerms = errors.New("No active terms and conditions found")

// MsgTermsChanged refuses a signature of terms other than the ones the signer was shown: an
// admin activated another version, or edited the active one, while they were signing.
const MsgTermsChanged = "The terms and conditions changed while you were signing. Read the new version and sign again."

// PDF states of an agreement (DESIGN.md §7).
const (
	PDFGenerating = "generating"
	PDFAvailable  = "available"
	PDFFailed     = "failed"
)

// maxUserAgent is the longest user agent string stored with an agreement.
const maxUserAgent = 500

// Version is a typed view of a terms_versions record.
type Version struct{ *core.Record }

// Content returns the exact HTML of the version.
func (v Version) Content() string { return v.GetString(schema.TermsContent) }

// Label returns the version label, e.g. "2025.1".
func (v Version) Label() string { return v.GetString(schema.TermsVersion) }

// ActiveJSON is the answer of GET /api/terms-content/active.
type ActiveJSON struct {
	ID            string `json:"id"`
	Title         string `json:"title"`
	Version       string `json:"version"`
	EffectiveDate string `json:"effectiveDate"`
	Content       string `json:"content"`
	// ContentHash is Hash(Content): the signer's client sends it back with the signature
	// (Signature.ShownHash), so the terms recorded are the terms that were read.
	ContentHash string `json:"contentHash"`
}

// ToActiveJSON returns v in the shape of GET /api/terms-content/active.
func (v Version) ToActiveJSON() ActiveJSON {
	return ActiveJSON{
		ID:            v.Id,
		Title:         v.GetString(schema.TermsTitle),
		Version:       v.Label(),
		EffectiveDate: v.GetString(schema.TermsEffectiveDate),
		Content:       v.Content(),
		ContentHash:   Hash(v.Content()),
	}
}

// FindActive returns the active terms version, or ErrNoActiveTerms.
func FindActive(app core.App) (Version, error) {
	rec, err := app.FindFirstRecordByFilter(schema.TermsVersions, schema.TermsIsActive+" = true")
	if errors.Is(err, sql.ErrNoRows) {
		return Version{}, ErrNoActiveTerms
	}
	if err != nil {
		return Version{}, err
	}
	return Version{rec}, nil
}

// Hash is the SHA-256 (hex) of content, stored with each agreement so the exact text signed
// can be proven later even if the version is edited.
func Hash(content string) string {
	sum := sha256.Sum256([]byte(content))
	return hex.EncodeToString(sum[:])
}

// How a signature was made (the agreement's signatureMethod).
const (
	SignatureDrawn = "drawn" // drawn on the signature pad
	SignatureTyped = "typed" // the signer's typed name, rendered in a handwriting font
)

// Signature is what a user hands over when signing a terms version.
type Signature struct {
	User      *core.Record
	Terms     Version
	PNG       []byte // the signature image, already checked to be a PNG
	Method    string // SignatureDrawn or SignatureTyped
	Text      string // the typed name (SignatureTyped only)
	IP        string
	UserAgent string
	SignedAt  time.Time
	// ShownHash is the ContentHash of the terms the signer was shown ("" when the client did
	// not say): RecordAgreement refuses the signature when Terms' content is another.
	ShownHash string
}

// RecordAgreement saves the agreement for s with its PDF still to be generated: the PDF is
// made in the background once app's transaction commits (txutil.OnCommit: never for a
// signing rolled back), on the app Register was given; the pdf job retries what is stuck.
// Call it with the transaction that creates or changes the user, so both land or neither does.
func RecordAgreement(app core.App, s Signature) (*core.Record, error) {
	if s.ShownHash != "" && s.ShownHash != Hash(s.Terms.Content()) {
		return nil, apierr.Conflict(MsgTermsChanged)
	}
	col, err := app.FindCachedCollectionByNameOrId(schema.Agreements)
	if err != nil {
		return nil, err
	}
	file, err := filesystem.NewFileFromBytes(s.PNG, "signature.png")
	if err != nil {
		return nil, fmt.Errorf("signature file: %w", err)
	}
	signedAt, err := types.ParseDateTime(s.SignedAt)
	if err != nil {
		return nil, err
	}
	rec := core.NewRecord(col)
	rec.Set(schema.AgreementUser, s.User.Id)
	rec.Set(schema.AgreementTerms, s.Terms.Id)
	rec.Set(schema.AgreementTermsVersion, s.Terms.Label())
	rec.Set(schema.AgreementTermsHash, Hash(s.Terms.Content()))
	rec.Set(schema.AgreementSignature, file)
	rec.Set(schema.AgreementSignedAt, signedAt)
	method := s.Method
	if method == "" {
		method = SignatureDrawn
	}
	rec.Set(schema.AgreementSignatureMethod, method)
	if method == SignatureTyped {
		rec.Set(schema.AgreementSignatureText, s.Text)
	}
	rec.Set(schema.AgreementIP, s.IP)
	rec.Set(schema.AgreementUserAgent, truncate(s.UserAgent, maxUserAgent))
	rec.Set(schema.AgreementPDFStatus, PDFGenerating)
	rec.Set(schema.AgreementFirstName, s.User.GetString(schema.UserFirstName))
	rec.Set(schema.AgreementLastName, s.User.GetString(schema.UserLastName))
	rec.Set(schema.AgreementEmail, s.User.Email())
	if err := app.Save(rec); err != nil {
		return nil, err
	}
	if root, ok := app.Store().Get(rootAppKey).(core.App); ok {
		id := rec.Id
		txutil.OnCommit(app, func() { generateInBackground(root, id) })
	}
	return rec, nil
}

// rootAppKey holds, in the app's store, the app Register was given: after-commit work must not
// use a transaction's app, whose transaction has ended.
const rootAppKey = "terms.rootApp"

// generateInBackground makes agreement id's PDF on a goroutine that shutdown waits for
// (generations): signing never waits for the render.
func generateInBackground(app core.App, id string) {
	wg := generations(app)
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := Generate(app, id, clock.Now()); err != nil && !errors.Is(err, ErrInProgress) {
			app.Logger().Warn("agreement PDF failed; the pdf job will retry", "agreement", id, "error", err.Error())
		}
	}()
}

// Agreement is a typed view of an agreements record.
type Agreement struct{ *core.Record }

// LatestAgreements returns each given user's most recent agreement, keyed by user id. Users
// who never signed are absent.
func LatestAgreements(app core.App, userIDs []string) (map[string]Agreement, error) {
	out := make(map[string]Agreement, len(userIDs))
	if len(userIDs) == 0 {
		return out, nil
	}
	ids := make([]any, len(userIDs))
	for i, id := range userIDs {
		ids[i] = id
	}
	var recs []*core.Record
	err := app.RecordQuery(schema.Agreements).
		AndWhere(dbx.In(schema.AgreementUser, ids...)).
		OrderBy(schema.AgreementSignedAt+" DESC", schema.Created+" DESC").
		All(&recs)
	if err != nil {
		return nil, err
	}
	for _, rec := range recs {
		user := rec.GetString(schema.AgreementUser)
		if _, seen := out[user]; !seen {
			out[user] = Agreement{rec}
		}
	}
	return out, nil
}

// truncate cuts s to at most n characters without splitting a UTF-8 sequence.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}

// PDFStatus returns generating, available or failed.
func (a Agreement) PDFStatus() string { return a.GetString(schema.AgreementPDFStatus) }

// Label returns the terms version label the agreement was signed under.
func (a Agreement) Label() string { return a.GetString(schema.AgreementTermsVersion) }
