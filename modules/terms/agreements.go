package terms

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/filesystem"
	"github.com/pocketbase/pocketbase/tools/filesystem/blob"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/apierr"
	"swapbay/lib/events"
	"swapbay/lib/imagebudget"
	"swapbay/lib/pdfqueue"
	"swapbay/lib/schema"
	"swapbay/lib/txutil"
	"swapbay/modules/system"
)

// Messages of the agreements (the spec's wording where it gives one).
const (
	MsgAgreementNotFound = "Agreement not found"
	MsgPDFGenerating     = "The PDF is still being generated. Please try again in a moment."
	MsgPDFFailed         = "PDF generation failed. Please contact admin to regenerate this legal document."
	MsgPDFRetried        = "PDF generation retried successfully"
	MsgPDFInProgress     = "The PDF is being generated right now. Please try again in a moment."
	MsgNoAgreement       = "You have not signed an agreement yet."
)

// RetryDelays is the PDF job's backoff after a failed attempt (DESIGN.md §7): 1 min, 5 min,
// 30 min, 2 h, then every 12 h.
var RetryDelays = []time.Duration{time.Minute, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 12 * time.Hour}

// retryDelay is the wait after the n-th failed attempt (n ≥ 1).
func retryDelay(n int) time.Duration { return RetryDelays[min(max(n, 1), len(RetryDelays))-1] }

// StuckAfter is how long an agreement may stay generating before the job takes it over (the
// after-commit generation normally finishes within a second; a restart interrupts it).
const StuckAfter = time.Minute

// AgreementRow is one signed agreement as the admin table shows it (DESIGN.md §7).
type AgreementRow struct {
	Id           string `db:"id" json:"id"`
	UserId       string `db:"userId" json:"userId"`
	FirstName    string `db:"firstName" json:"firstName"`
	LastName     string `db:"lastName" json:"lastName"`
	Email        string `db:"email" json:"email"`
	SignedAt     string `db:"signedAt" json:"signedAt"`
	TermsVersion string `db:"termsVersion" json:"termsVersion"`
	PDFStatus    string `db:"pdfStatus" json:"pdfStatus"`
	PDFError     string `db:"pdfError" json:"-"`
	PDFUrl       string `db:"-" json:"pdfUrl"`
	// SignatureMethod is how it was signed: SignatureDrawn or SignatureTyped (older rows read as drawn).
	SignatureMethod string `db:"signatureMethod" json:"signatureMethod"`
}

// PDFPath is where an agreement's PDF is downloaded.
func PDFPath(id string) string { return "/api/agreements/" + id + "/pdf" }

// pdfURL is the spec's pdfUrl: the download path when available, "" while generating,
// "ERROR: <reason>" after a failure.
func pdfURL(id, status, reason string) string {
	switch status {
	case PDFAvailable:
		return PDFPath(id)
	case PDFFailed:
		if reason == "" {
			reason = "unknown error"
		}
		return "ERROR: " + reason
	}
	return ""
}

// ListAgreements returns every signed agreement, newest first, with the signer as they signed.
func ListAgreements(app core.App) ([]AgreementRow, error) {
	rows := []AgreementRow{}
	err := app.DB().NewQuery("SELECT a.id, a.user AS userId," +
		" COALESCE(NULLIF(a.firstName, ''), u.firstName, '') AS firstName," +
		" COALESCE(NULLIF(a.lastName, ''), u.lastName, '') AS lastName," +
		" COALESCE(NULLIF(a.email, ''), u.email, '') AS email," +
		" a.signedAt, a.termsVersion, a.pdfStatus, a.pdfError," +
		" COALESCE(NULLIF(a.signatureMethod, ''), {:drawn}) AS signatureMethod" +
		" FROM " + schema.Agreements + " a LEFT JOIN " + schema.Users + " u ON u.id = a.user ORDER BY a.signedAt DESC, a.created DESC").
		Bind(dbx.Params{"drawn": SignatureDrawn}).All(&rows)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		if t, err := types.ParseDateTime(rows[i].SignedAt); err == nil {
			rows[i].SignedAt = t.Time().UTC().Format(time.RFC3339)
		}
		rows[i].PDFUrl = pdfURL(rows[i].Id, rows[i].PDFStatus, rows[i].PDFError)
	}
	return rows, nil
}

// CountFailedPDFs returns how many agreements' PDFs failed (the Retry PDF rows of the
// agreements table): the admin Home's attention strip.
func CountFailedPDFs(app core.App) (int64, error) {
	return app.CountRecords(schema.Agreements, dbx.HashExp{schema.AgreementPDFStatus: PDFFailed})
}

// MyAgreement is a signer's own latest agreement (GET /api/agreements/mine).
type MyAgreement struct {
	Id           string `json:"id"`
	TermsVersion string `json:"termsVersion"`
	SignedAt     string `json:"signedAt"` // RFC 3339, UTC
	PDFStatus    string `json:"pdfStatus"`
	PDFUrl       string `json:"pdfUrl"` // as AgreementRow's
}

// LatestAgreementOf returns userId's latest signed agreement, or a 404 apierr (MsgNoAgreement).
func LatestAgreementOf(app core.App, userId string) (MyAgreement, error) {
	var r AgreementRow
	err := app.DB().NewQuery("SELECT id, signedAt, termsVersion, pdfStatus, pdfError FROM " + schema.Agreements +
		" WHERE user = {:user} ORDER BY signedAt DESC, created DESC LIMIT 1").
		Bind(dbx.Params{"user": userId}).One(&r)
	if errors.Is(err, sql.ErrNoRows) {
		return MyAgreement{}, apierr.NotFound(MsgNoAgreement)
	}
	if err != nil {
		return MyAgreement{}, err
	}
	signed := r.SignedAt
	if t, err := types.ParseDateTime(r.SignedAt); err == nil {
		signed = t.Time().UTC().Format(time.RFC3339)
	}
	return MyAgreement{Id: r.Id, TermsVersion: r.TermsVersion, SignedAt: signed, PDFStatus: r.PDFStatus,
		PDFUrl: pdfURL(r.Id, r.PDFStatus, r.PDFError)}, nil
}

// FindAgreement returns agreement id, or a 404 apierr.
func FindAgreement(app core.App, id string) (Agreement, error) {
	rec, err := app.FindRecordById(schema.Agreements, id)
	if err != nil {
		return Agreement{}, apierr.NotFound(MsgAgreementNotFound)
	}
	return Agreement{rec}, nil
}

// SignerId is the user who signed ("" once their account is deleted).
func (a Agreement) SignerId() string { return a.GetString(schema.AgreementUser) }

// inflight holds the agreements whose PDF is being made in this process, so the after-commit
// generation, the job and a retry never make the same PDF twice at once.
var inflight sync.Map

// generationsKey holds, in the app's store, the WaitGroup of the PDFs being made by that app
// (one per app: tests run several apps at once, and a WaitGroup must not be reused while waited on).
const generationsKey = "terms.generations"

// generations lets shutdown wait for the PDFs app is making (see Register).
func generations(app core.App) *sync.WaitGroup {
	return app.Store().GetOrSet(generationsKey, func() any { return &sync.WaitGroup{} }).(*sync.WaitGroup)
}

// WaitForPDFs waits for the PDFs app is making in the background (commands that sign, such
// as seed-demo, call it before they exit).
func WaitForPDFs(app core.App) { generations(app).Wait() }

// renderPDF is RenderPDF; tests replace it to make generation fail.
var renderPDF = RenderPDF

// errGenerateInTransaction refuses a Generate called inside a transaction.
var errGenerateInTransaction = errors.New("terms: an agreement PDF is made outside any transaction")

// ErrInProgress refuses a generation while another is running for the same agreement.
var ErrInProgress = apierr.Conflict(MsgPDFInProgress)

// Generate makes agreement id's PDF now and stores it as a protected file (status available);
// on failure it records the reason (status failed, pdfUrl "ERROR: …") and when the job retries.
// The error says why; it never panics. Run it outside any transaction.
func Generate(app core.App, id string, now time.Time) error {
	if app.IsTransactional() {
		// the render would hold SQLite's only writer, and a rollback would drop the recorded
		// failure with its event (POST /api/admin/retry-pdf is bound idempotency.Skip())
		return errGenerateInTransaction
	}
	if _, busy := inflight.LoadOrStore(id, true); busy {
		return ErrInProgress
	}
	defer inflight.Delete(id)
	wg := generations(app)
	wg.Add(1)
	defer wg.Done()

	// one render at a time in the process's PDF queue, in the order asked (the after-commit
	// generation, the job, an admin's retry, the label sheets): a render holds the terms text
	// and the signature in memory
	return pdfqueue.Do(context.Background(), func() error { return generate(app, id, now) })
}

// generate is Generate's work, inside the PDF queue.
func generate(app core.App, id string, now time.Time) error {
	a, err := FindAgreement(app, id)
	if err != nil {
		return err
	}
	// the attempt is counted, with its retry time, before the render: a process killed while
	// rendering (out of memory) leaves the agreement to the job's backoff, never to a
	// restart loop that renders it again at once
	attempts := a.GetInt(schema.AgreementPDFAttempts) + 1
	if err := updateAgreement(app, id, func(fresh Agreement) {
		fresh.Set(schema.AgreementPDFAttempts, attempts)
		fresh.Set(schema.AgreementPDFNextAt, now.Add(retryDelay(attempts)).UTC())
	}); err != nil {
		return err
	}
	pdf, genErr := build(app, a)
	if genErr == nil {
		var file *filesystem.File
		if file, genErr = filesystem.NewFileFromBytes(pdf, "agreement-"+id+".pdf"); genErr == nil {
			genErr = updateAgreement(app, id, func(fresh Agreement) {
				fresh.Set(schema.AgreementPDF, file)
				fresh.Set(schema.AgreementPDFStatus, PDFAvailable)
				fresh.Set(schema.AgreementPDFError, "")
				fresh.Set(schema.AgreementPDFNextAt, "")
			})
			if genErr == nil {
				events.Publish(app, TermsUpdated) // the agreements table and the Users page badges refresh
				return nil
			}
		}
	}
	// record the failure and when the job retries
	err = updateAgreement(app, id, func(fresh Agreement) {
		fresh.Set(schema.AgreementPDFStatus, PDFFailed)
		fresh.Set(schema.AgreementPDFError, truncate(genErr.Error(), 900))
	})
	if err != nil {
		app.Logger().Error("agreement PDF: could not record the failure", "agreement", id, "error", err.Error())
	} else {
		events.Publish(app, TermsUpdated)
	}
	return genErr
}

// updateAgreement applies set to agreement id as read in the transaction that saves it
// (txutil.Modify). Rendering a PDF takes a while: the agreement may change meanwhile
// (deleting its signer clears the user link), and saving the copy read before rendering
// would write the old values back.
func updateAgreement(app core.App, id string, set func(Agreement)) error {
	_, err := txutil.Modify(app, func(txApp core.App) (*core.Record, error) {
		a, err := FindAgreement(txApp, id)
		return a.Record, err
	}, func(_ core.App, rec *core.Record) (bool, error) {
		set(Agreement{rec}) // the *core.Record is saved: a wrapper would skip the file upload
		return true, nil
	})
	return err
}

// build gathers the evidence of agreement a and renders its PDF.
func build(app core.App, a Agreement) ([]byte, error) {
	terms, err := app.FindRecordById(schema.TermsVersions, a.GetString(schema.AgreementTerms))
	if err != nil {
		return nil, errors.New("the signed terms version no longer exists")
	}
	content := terms.GetString(schema.TermsContent)
	if Hash(content) != a.GetString(schema.AgreementTermsHash) {
		return nil, errors.New("the signed terms version was changed after signing; its text no longer matches the signed fingerprint")
	}
	signature, err := readFile(app, a.Record, schema.AgreementSignature)
	if err != nil {
		return nil, fmt.Errorf("read the signature image: %w", err)
	}
	if len(signature) > 0 {
		// a signature stored before signatures were bounded is refused by its header, never
		// decoded: retrying it costs a header read
		if err := checkSignature(signature); err != nil {
			return nil, err
		}
	}
	zone, err := system.Location(app)
	if err != nil {
		return nil, err
	}
	first, last, email := a.GetString(schema.AgreementFirstName), a.GetString(schema.AgreementLastName), a.GetString(schema.AgreementEmail)
	if u, err := app.FindRecordById(schema.Users, a.SignerId()); err == nil && email == "" {
		first, last, email = u.GetString(schema.UserFirstName), u.GetString(schema.UserLastName), u.Email()
	}
	var out []byte
	err = imagebudget.Decode(func() (err error) { // the render decodes the signature
		out, err = renderPDF(Evidence{
			Title: terms.GetString(schema.TermsTitle), Version: a.GetString(schema.AgreementTermsVersion),
			EffectiveDate: terms.GetString(schema.TermsEffectiveDate), Content: content,
			SignerName: strings.TrimSpace(first + " " + last), SignerEmail: email,
			SignedAt: a.GetDateTime(schema.AgreementSignedAt).Time(), Zone: zone,
			IP: a.GetString(schema.AgreementIP), UserAgent: a.GetString(schema.AgreementUserAgent),
			ContentSHA256: a.GetString(schema.AgreementTermsHash), Signature: signature, AgreementID: a.Id,
			SignatureMethod: a.GetString(schema.AgreementSignatureMethod), SignatureText: a.GetString(schema.AgreementSignatureText),
		})
		return err
	})
	return out, err
}

// readFile returns the bytes of rec's file field (the empty slice when it has no file).
func readFile(app core.App, rec *core.Record, field string) ([]byte, error) {
	name := rec.GetString(field)
	if name == "" {
		return nil, nil
	}
	fs, err := app.NewFilesystem()
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	r, err := fs.GetReader(rec.BaseFilesPath() + "/" + name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(io.LimitReader(r, 20<<20))
}

// OpenPDF returns agreement a's stored PDF (MsgPDFGenerating / MsgPDFFailed as 409 when there
// is none yet).
func OpenPDF(app core.App, a Agreement) (io.ReadCloser, int64, error) {
	switch a.PDFStatus() {
	case PDFFailed:
		return nil, 0, apierr.Conflict(MsgPDFFailed)
	case PDFAvailable:
	default:
		return nil, 0, apierr.Conflict(MsgPDFGenerating)
	}
	fs, err := app.NewFilesystem()
	if err != nil {
		return nil, 0, err
	}
	r, err := fs.GetReader(a.BaseFilesPath() + "/" + a.GetString(schema.AgreementPDF))
	if err != nil {
		fs.Close()
		app.Logger().Error("agreement PDF: stored file unreadable", "agreement", a.Id, "file", a.GetString(schema.AgreementPDF), "error", err.Error())
		return nil, 0, apierr.Conflict(MsgPDFFailed)
	}
	return closeBoth{r, fs}, r.Size(), nil
}

type closeBoth struct {
	*blob.Reader
	fs *filesystem.System
}

func (c closeBoth) Close() error {
	err := c.Reader.Close()
	c.fs.Close()
	return err
}

// RetryDue makes the PDFs the job owes (DESIGN.md §7): agreements generating for longer than
// StuckAfter (interrupted by a restart) and failed ones, whose retry time has come (counted
// before each render, so a render that killed the process waits its backoff too), oldest
// first, at most limit. It returns how many it made.
func RetryDue(ctx context.Context, app core.App, now time.Time, limit int) (int, error) {
	var ids []string
	stamp := types.NowDateTime()
	if t, err := types.ParseDateTime(now.UTC()); err == nil {
		stamp = t
	}
	stuck, _ := types.ParseDateTime(now.Add(-StuckAfter).UTC())
	err := app.DB().NewQuery("SELECT id FROM " + schema.Agreements + " WHERE ((pdfStatus = {:gen} AND created <= {:stuck})" +
		" OR pdfStatus = {:failed}) AND (pdfNextAttemptAt = '' OR pdfNextAttemptAt <= {:now})" +
		" ORDER BY created LIMIT " + strconv.Itoa(max(limit, 0))). // a literal: a bound LIMIT re-plans the statement on every run
		Bind(dbx.Params{"gen": PDFGenerating, "failed": PDFFailed, "stuck": stuck.String(), "now": stamp.String()}).
		Column(&ids)
	if err != nil {
		return 0, err
	}
	made := 0
	for _, id := range ids {
		if ctx.Err() != nil {
			break
		}
		if err := Generate(app, id, now); err == nil {
			made++
		} else if !errors.Is(err, ErrInProgress) {
			app.Logger().Warn("agreement PDF retry failed", "agreement", id, "error", err.Error())
		}
	}
	return made, nil
}
