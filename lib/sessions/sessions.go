// Package sessions starts a signed-in device's session: a row in a sessions collection and the
// token that names it (DESIGN.md §5 "Sessions are revocable"). The city's users keep theirs in
// auth_sessions (modules/auth), head office's in hq_sessions (modules/hq); both collections
// have the fields of schema.AuthSession*.
package sessions

import (
	"fmt"

	"github.com/golang-jwt/jwt/v5"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/security"

	"swapbay/lib/schema"
)

// Start records a signed-in device for rec in the sessions collection and returns its session
// token: a PocketBase auth token (signed with the user's token key, so PocketBase's own token
// loader accepts it) that also carries the session's id (schema.SessionClaim). It is not
// refreshable: a new session always starts at a sign-in.
func Start(app core.App, collection string, rec *core.Record, ip, userAgent string) (string, error) {
	col, err := app.FindCachedCollectionByNameOrId(collection)
	if err != nil {
		return "", err
	}
	s := core.NewRecord(col)
	s.Set(schema.AuthSessionUser, rec.Id)
	s.Set(schema.AuthSessionIP, truncate(ip, 100))
	s.Set(schema.AuthSessionUserAgent, truncate(userAgent, 500))
	if err := app.SaveNoValidate(s); err != nil {
		return "", fmt.Errorf("save session: %w", err)
	}
	key := rec.TokenKey() + rec.Collection().AuthToken.Secret
	return security.NewJWT(jwt.MapClaims{
		core.TokenClaimType:         core.TokenTypeAuth,
		core.TokenClaimId:           rec.Id,
		core.TokenClaimCollectionId: rec.Collection().Id,
		core.TokenClaimRefreshable:  false,
		schema.SessionClaim:         s.Id,
	}, key, rec.Collection().AuthToken.DurationTime())
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}
