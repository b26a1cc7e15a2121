package sessions

import (
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"
	"github.com/pocketbase/pocketbase/tools/security"

	"swapbay/lib/schema"
)

// TestStartRecordsTheDeviceAndNamesItInTheToken: the row holds the user, the IP and the user
// agent (cut to the fields' lengths), and the token is the user's auth token naming the row.
func TestStartRecordsTheDeviceAndNamesItInTheToken(t *testing.T) {
	app, err := tests.NewTestApp(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer app.Cleanup()
	users, err := app.FindCollectionByNameOrId("users")
	if err != nil {
		t.Fatal(err)
	}
	table := core.NewBaseCollection("device_sessions")
	table.Fields.Add(
		&core.RelationField{Name: schema.AuthSessionUser, CollectionId: users.Id, MaxSelect: 1},
		&core.TextField{Name: schema.AuthSessionIP, Max: 100},
		&core.TextField{Name: schema.AuthSessionUserAgent, Max: 500},
	)
	if err := app.Save(table); err != nil {
		t.Fatal(err)
	}
	user := core.NewRecord(users)
	user.SetEmail("ada@example.com")
	user.SetPassword("long-secret-1")
	if err := app.Save(user); err != nil {
		t.Fatal(err)
	}

	token, err := Start(app, "device_sessions", user, "203.0.113.7", strings.Repeat("é", 600))
	if err != nil {
		t.Fatal(err)
	}
	claims, err := security.ParseJWT(token, user.TokenKey()+users.AuthToken.Secret)
	if err != nil {
		t.Fatalf("the token is not the user's auth token: %v", err)
	}
	sid, _ := claims[schema.SessionClaim].(string)
	row, err := app.FindRecordById("device_sessions", sid)
	if err != nil {
		t.Fatalf("the token names no session row (%q): %v", sid, err)
	}
	if row.GetString(schema.AuthSessionUser) != user.Id || row.GetString(schema.AuthSessionIP) != "203.0.113.7" ||
		row.GetString(schema.AuthSessionUserAgent) != strings.Repeat("é", 500) {
		t.Errorf("row = %v", row.FieldsData())
	}
	if claims[core.TokenClaimId] != user.Id || claims[core.TokenClaimType] != core.TokenTypeAuth || claims[core.TokenClaimRefreshable] != false {
		t.Errorf("claims = %v", claims)
	}
}
