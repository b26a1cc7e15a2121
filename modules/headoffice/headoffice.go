// Package headoffice is the city's side of head office (DESIGN.md §15, issue 45): the tokens a
// city's master admin issues for head office, and the door they open. A token acts with the
// rights of the master admin who issued it, narrowed to its routes (Scope: reading packs and
// recalls, starting a recall); it is shown once, only its SHA-256 is kept, a revoked one is
// refused at once, and what head office did with it is on the System page's audit list.
package headoffice

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/idempotency"
	"swapbay/lib/order"
	"swapbay/lib/records"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/system"
	"swapbay/modules/users"
)

// Prefix starts every head-office token, so the door tells one from a session token without a
// lookup (and a leaked one is recognisable in a log or a secret scanner).
const Prefix = "swbhq_"

// Messages.
const (
	MsgNameRequired  = "Name the token (who or what will use it)"
	MsgNameTooLong   = "The token's name is at most %d characters"
	MsgIssued        = "Token issued. Copy it now: it is shown only once."
	MsgRevoked       = "Token revoked. Head office can no longer use it."
	MsgNotFound      = "Head-office token not found"
	MsgAlreadyGone   = "This token was already revoked"
	MsgInvalid       = "This head-office token is not valid or was revoked."
	MsgOutOfScope    = "A head-office token may only read packs and recalls and start a recall."
	MsgIssuerCannot  = "The master admin who issued this head-office token can no longer act: issue a new token."
	MsgTooManyTokens = "At most %d head-office tokens may be active: revoke one first"
)

// MaxActive bounds the tokens that work at once: head office is a few systems, not a crowd.
const MaxActive = 20

// scope lists the routes a token opens (method, path): the pack and recall reads head office
// searches and follows, and starting a recall (issue 45 item 4). Everything else is refused.
var scope = []struct {
	method string
	path   *regexp.Regexp
}{
	{http.MethodGet, regexp.MustCompile(`^/api/packs$`)},
	{http.MethodGet, regexp.MustCompile(`^/api/packs/lookup$`)},
	{http.MethodGet, regexp.MustCompile(`^/api/packs/[^/]+$`)},
	{http.MethodGet, regexp.MustCompile(`^/api/packs/[^/]+/passport$`)},
	{http.MethodGet, regexp.MustCompile(`^/api/admin/packs/recall-preview$`)},
	{http.MethodGet, regexp.MustCompile(`^/api/admin/packs/recalls$`)},
	{http.MethodGet, regexp.MustCompile(`^/api/admin/packs/recalls/[^/]+$`)},
	{http.MethodPost, regexp.MustCompile(`^/api/admin/packs/recall$`)},
}

// InScope reports whether a token may call method on path.
func InScope(method, path string) bool {
	if method == http.MethodHead {
		method = http.MethodGet
	}
	for _, s := range scope {
		if s.method == method && s.path.MatchString(path) {
			return true
		}
	}
	return false
}

// Hash is the stored form of token.
func Hash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// newToken returns a fresh token: the prefix and 32 random bytes.
func newToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand never fails on Linux (Go 1.24+: it panics instead)
	return Prefix + base64.RawURLEncoding.EncodeToString(b)
}

// Token is a head-office token as the System page lists it (never the token itself).
type Token struct {
	Id         string  `json:"id"`
	Name       string  `json:"name"`
	Hint       string  `json:"hint"`
	IssuedAt   string  `json:"issuedAt"`
	IssuedBy   string  `json:"issuedBy"`
	RevokedAt  *string `json:"revokedAt"`
	RevokedBy  *string `json:"revokedBy"`
	LastUsedAt *string `json:"lastUsedAt"`
}

type tokenRow struct {
	Id         string `db:"id"`
	Name       string `db:"name"`
	Hint       string `db:"hint"`
	IssuedBy   string `db:"issuedBy"`
	RevokedAt  string `db:"revokedAt"`
	RevokedBy  string `db:"revokedBy"`
	LastUsedAt string `db:"lastUsedAt"`
	Created    string `db:"created"`
}

const tokenColumns = "id, " + schema.HeadOfficeTokenName + ", " + schema.HeadOfficeTokenHint + ", " +
	schema.HeadOfficeTokenIssuedBy + ", " + schema.HeadOfficeTokenRevokedAt + ", " + schema.HeadOfficeTokenRevokedBy + ", " +
	schema.HeadOfficeTokenLastUsedAt + ", created"

// List returns every token, newest first, with the names of who issued and revoked it.
func List(app core.App) ([]Token, error) {
	var rows []tokenRow
	if err := app.DB().NewQuery("SELECT " + tokenColumns + " FROM " + schema.HeadOfficeTokens + " ORDER BY created DESC, id DESC").All(&rows); err != nil {
		return nil, err
	}
	var ids []string
	for _, r := range rows {
		ids = append(ids, r.IssuedBy, r.RevokedBy)
	}
	people, err := users.Names(app, nonEmpty(ids))
	if err != nil {
		return nil, err
	}
	out := make([]Token, 0, len(rows))
	for _, r := range rows {
		out = append(out, toToken(r, people))
	}
	return out, nil
}

func toToken(r tokenRow, people map[string]users.Person) Token {
	t := Token{Id: r.Id, Name: r.Name, Hint: r.Hint, IssuedAt: r.Created, IssuedBy: nameOf(people, r.IssuedBy)}
	if r.RevokedAt != "" {
		at, by := r.RevokedAt, nameOf(people, r.RevokedBy)
		if r.RevokedBy == "" {
			by = RestoreActor // the only revocation without a master admin (RevokeRestored)
		}
		t.RevokedAt, t.RevokedBy = &at, &by
	}
	if r.LastUsedAt != "" {
		at := r.LastUsedAt
		t.LastUsedAt = &at
	}
	return t
}

func nameOf(people map[string]users.Person, id string) string {
	if p, ok := people[id]; ok {
		return strings.TrimSpace(p.FirstName + " " + p.LastName)
	}
	if id == "" {
		return ""
	}
	return "a deleted user"
}

func nonEmpty(ids []string) []string {
	out := ids[:0:0]
	for _, id := range ids {
		if id != "" {
			out = append(out, id)
		}
	}
	return out
}

// Issue creates a token named name for master admin issuer and returns it with the token
// itself (the only time it is seen). Call it inside the request's transaction.
func Issue(txApp core.App, issuer *core.Record, name string) (Token, string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return Token{}, "", apierr.Invalid("name", MsgNameRequired)
	case len([]rune(name)) > schema.MaxHeadOfficeTokenName:
		return Token{}, "", apierr.Invalid("name", fmt.Sprintf(MsgNameTooLong, schema.MaxHeadOfficeTokenName))
	}
	var active int
	if err := txApp.DB().NewQuery("SELECT COUNT(*) FROM " + schema.HeadOfficeTokens + " WHERE " + schema.HeadOfficeTokenRevokedAt + " = ''").Row(&active); err != nil {
		return Token{}, "", err
	}
	if active >= MaxActive {
		return Token{}, "", apierr.Conflict(fmt.Sprintf(MsgTooManyTokens, MaxActive))
	}
	token := newToken()
	rec, err := records.New(txApp, schema.HeadOfficeTokens)
	if err != nil {
		return Token{}, "", err
	}
	rec.Set(schema.HeadOfficeTokenName, name)
	rec.Set(schema.HeadOfficeTokenHash, Hash(token))
	rec.Set(schema.HeadOfficeTokenHint, token[len(token)-4:])
	rec.Set(schema.HeadOfficeTokenIssuedBy, issuer.Id)
	if err := txApp.Save(rec); err != nil {
		return Token{}, "", err
	}
	if err := system.RecordChange(txApp, system.Change{Actor: issuer.Email(), ActorId: issuer.Id, ActorKind: schema.Users,
		Action: schema.AuditActionCreate, Collection: schema.HeadOfficeTokens, Record: rec.Id,
		Fields: []string{schema.HeadOfficeTokenName}}); err != nil {
		return Token{}, "", err
	}
	people := map[string]users.Person{issuer.Id: {Id: issuer.Id, FirstName: issuer.GetString(schema.UserFirstName), LastName: issuer.GetString(schema.UserLastName)}}
	return toToken(tokenRow{Id: rec.Id, Name: name, Hint: rec.GetString(schema.HeadOfficeTokenHint), IssuedBy: issuer.Id,
		Created: rec.GetDateTime("created").String()}, people), token, nil
}

// Revoke ends token id by master admin by; it is refused at once afterwards.
func Revoke(txApp core.App, by *core.Record, id string) (Token, error) {
	rec, err := txApp.FindRecordById(schema.HeadOfficeTokens, id)
	if err != nil {
		return Token{}, apierr.NotFound(MsgNotFound)
	}
	if !rec.GetDateTime(schema.HeadOfficeTokenRevokedAt).IsZero() {
		return Token{}, apierr.Conflict(MsgAlreadyGone)
	}
	now, _ := types.ParseDateTime(clock.Now().UTC())
	rec.Set(schema.HeadOfficeTokenRevokedAt, now)
	rec.Set(schema.HeadOfficeTokenRevokedBy, by.Id)
	if err := txApp.Save(rec); err != nil {
		return Token{}, err
	}
	forget(rec.GetString(schema.HeadOfficeTokenHash))
	if err := system.RecordChange(txApp, system.Change{Actor: by.Email(), ActorId: by.Id, ActorKind: schema.Users,
		Action: schema.AuditActionUpdate, Collection: schema.HeadOfficeTokens, Record: rec.Id,
		Fields: []string{schema.HeadOfficeTokenRevokedAt}}); err != nil {
		return Token{}, err
	}
	people, err := users.Names(txApp, nonEmpty([]string{rec.GetString(schema.HeadOfficeTokenIssuedBy), by.Id}))
	if err != nil {
		return Token{}, err
	}
	return toToken(tokenRow{Id: rec.Id, Name: rec.GetString(schema.HeadOfficeTokenName), Hint: rec.GetString(schema.HeadOfficeTokenHint),
		IssuedBy: rec.GetString(schema.HeadOfficeTokenIssuedBy), RevokedAt: now.String(), RevokedBy: by.Id,
		LastUsedAt: rec.GetString(schema.HeadOfficeTokenLastUsedAt), Created: rec.GetDateTime("created").String()}, people), nil
}

// RestoreActor is who revokes the tokens a restore brings back (RevokeRestored): the audit
// list's actor, and the token list's "revoked by".
const RestoreActor = "swapbay restore"

// RevokeRestored revokes every token still active in restored data (app: the data dir
// `swapbay restore` built, before it is served) and answers them. A backup, or a replica that
// stopped before, holds the tokens as they were then: one revoked since (leaked, head office
// moved) would work again, and the restore cannot tell which were. So every one is revoked,
// each with a row on the audit list; the city's master admin issues a new token on the System
// page and head office saves it on its Cities page (its recalls meanwhile fail in words, then
// Send again). Reads from head office do not need a token: they follow the replica.
func RevokeRestored(app core.App) ([]Token, error) {
	var out []Token
	if !app.HasTable(schema.HeadOfficeTokens) {
		return out, nil // data older than head office's tokens
	}
	err := app.RunInTransaction(func(txApp core.App) error {
		var rows []tokenRow
		if err := txApp.DB().NewQuery("SELECT " + tokenColumns + " FROM " + schema.HeadOfficeTokens + " WHERE " +
			schema.HeadOfficeTokenRevokedAt + " = '' ORDER BY created, id").All(&rows); err != nil {
			return err
		}
		now, _ := types.ParseDateTime(clock.Now().UTC())
		for _, r := range rows {
			if _, err := txApp.DB().Update(schema.HeadOfficeTokens, dbx.Params{schema.HeadOfficeTokenRevokedAt: now.String(),
				schema.HeadOfficeTokenRevokedBy: ""}, dbx.HashExp{"id": r.Id}).Execute(); err != nil {
				return err
			}
			if err := system.RecordChange(txApp, system.Change{Actor: RestoreActor,
				Action: schema.AuditActionUpdate, Collection: schema.HeadOfficeTokens, Record: r.Id,
				Fields: []string{schema.HeadOfficeTokenRevokedAt}}); err != nil {
				return err
			}
			r.RevokedAt = now.String()
			out = append(out, toToken(r, nil))
		}
		return nil
	})
	return out, err
}

// The door: Door turns a request carrying a head-office token into a request of the token's
// issuer, when the route is in the token's scope. It runs right after PocketBase loads the
// auth token (a head-office token is not a JWT, so none was loaded).

// DoorId identifies the middleware on the router.
const DoorId = "swapbayHeadOfficeToken"

// touchEvery is how often a token's lastUsedAt is written, and readEvery how often one read of
// a route by a token is written to the audit list: head office polls, and every read must not
// be a write.
const (
	touchEvery = time.Minute
	readEvery  = 10 * time.Minute
)

// seen remembers, per token hash, when its use was last written (lastUsedAt) and, per token
// and route, when its read was last recorded.
var seen sync.Map // string → time.Time

// forget drops what seen remembers of a token (its revocation, a test).
func forget(hash string) {
	seen.Range(func(k, _ any) bool {
		if strings.HasPrefix(k.(string), hash) {
			seen.Delete(k)
		}
		return true
	})
}

// due reports whether key was last marked more than every ago, and marks it now.
func due(key string, every time.Duration, now time.Time) bool {
	if last, ok := seen.Load(key); ok && now.Sub(last.(time.Time)) < every {
		return false
	}
	seen.Store(key, now)
	return true
}

// Door returns the router middleware (see above).
func Door() *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{
		Id:       DoorId,
		Priority: order.HeadOfficeToken,
		Func:     door,
	}
}

// bearer returns the request's head-office token ("" when it carries none).
func bearer(r *http.Request) string {
	h := strings.TrimSpace(r.Header.Get("Authorization"))
	if len(h) > 7 && strings.EqualFold(h[:7], "Bearer ") {
		h = strings.TrimSpace(h[7:])
	}
	if !strings.HasPrefix(h, Prefix) || len(h) > 200 {
		return ""
	}
	return h
}

type activeToken struct {
	Id       string `db:"id"`
	Name     string `db:"name"`
	IssuedBy string `db:"issuedBy"`
	Revoked  string `db:"revokedAt"`
}

func door(e *core.RequestEvent) error {
	token := bearer(e.Request)
	if token == "" {
		return e.Next()
	}
	e.Auth = nil // a token is never also a session
	hash := Hash(token)
	var t activeToken
	err := e.App.DB().Select("id", schema.HeadOfficeTokenName, schema.HeadOfficeTokenIssuedBy, schema.HeadOfficeTokenRevokedAt).
		From(schema.HeadOfficeTokens).Where(dbx.HashExp{schema.HeadOfficeTokenHash: hash}).Limit(1).One(&t)
	if err != nil || t.Revoked != "" {
		return apierr.New(http.StatusUnauthorized, "", MsgInvalid)
	}
	if !InScope(e.Request.Method, e.Request.URL.Path) {
		return apierr.New(http.StatusForbidden, "", MsgOutOfScope)
	}
	issuer, err := e.App.FindRecordById(schema.Users, t.IssuedBy)
	if err != nil || issuer.GetString(schema.UserRole) != roles.MasterAdmin || issuer.GetString(schema.UserIsApproved) != roles.Approved {
		return apierr.New(http.StatusForbidden, "", MsgIssuerCannot)
	}
	e.Auth = issuer
	now := clock.Now()
	if due(hash, touchEvery, now) {
		at, _ := types.ParseDateTime(now.UTC())
		if _, err := e.App.DB().Update(schema.HeadOfficeTokens, dbx.Params{schema.HeadOfficeTokenLastUsedAt: at.String()},
			dbx.HashExp{"id": t.Id}).Execute(); err != nil {
			e.App.Logger().Warn("headoffice: lastUsedAt", "error", err)
		}
	}
	status := &statusWriter{ResponseWriter: e.Response}
	e.Response = status
	err = e.Next()
	e.Response = status.ResponseWriter
	if err == nil && status.code >= 200 && status.code <= 299 {
		record(e, t, hash, now)
	}
	return err
}

// statusWriter notes the status of the answer (the writers outside this middleware, gzip and
// ETag, do not tell it).
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the writer underneath (flushes).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// record writes what head office did on the audit list: a recall it started (every one), a read
// (at most once per token and route every readEvery). The answer has gone out; a failed row is
// logged, never turned into an error for a change that committed.
func record(e *core.RequestEvent, t activeToken, hash string, now time.Time) {
	c := system.Change{Actor: "Head office: " + t.Name, ActorId: t.Id, ActorKind: schema.AuditActorHeadOffice}
	path := e.Request.URL.Path
	switch {
	case e.Request.Method == http.MethodPost && e.Response.Header().Get(idempotency.ReplayedHeader) != "":
		return // a retry answered from the first answer did nothing new
	case e.Request.Method == http.MethodPost:
		c.Action, c.Collection, c.Record = schema.AuditActionCreate, schema.PackRecalls, path
	case due(hash+" "+path, readEvery, now):
		c.Action, c.Collection, c.Record = schema.AuditActionRead, readCollection(path), path
	default:
		return
	}
	if err := system.RecordChange(e.App, c); err != nil {
		e.App.Logger().Warn("headoffice: audit row", "error", err)
	}
}

// readCollection names what a read path reads.
func readCollection(path string) string {
	if strings.HasPrefix(path, "/api/admin/packs/recall") {
		return schema.PackRecalls
	}
	return schema.Packs
}
