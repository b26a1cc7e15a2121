package users_test

import (
	"errors"
	"sync"
	"testing"

	"swapbay/internal/testkit"
	"swapbay/lib/events"
	"swapbay/lib/roles"
	"swapbay/modules/users"
)

// An account created, approved or deleted sends USERS_UPDATED (the Users page and the admin
// Home's attention strip refresh); a refused change sends nothing.
func TestUserChangesAreAnnounced(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	c := testkit.SeedCallers(t, app)
	var mu sync.Mutex
	var got []string
	defer events.For(app).Subscribe(func(m events.Message) {
		mu.Lock()
		got = append(got, m.Type)
		mu.Unlock()
	})()
	sent := func() int {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, m := range got {
			if m == users.UsersUpdated {
				n++
			}
		}
		got = nil
		return n
	}

	rec, err := users.Create(app, users.NewUser{Email: "new.driver@example.com", Password: testkit.Password, FirstName: "New", LastName: "Driver"})
	if err != nil {
		t.Fatal(err)
	}
	if n := sent(); n != 1 {
		t.Fatalf("create sent %d USERS_UPDATED, want 1", n)
	}
	if _, err := users.SetApproval(app, c.Admin, rec.Id, roles.Approved); err != nil {
		t.Fatal(err)
	}
	if n := sent(); n != 1 {
		t.Fatalf("approval sent %d, want 1", n)
	}
	if _, err := users.SetApproval(app, c.Admin, rec.Id, roles.Approved); err != nil { // unchanged: nothing saved
		t.Fatal(err)
	}
	if _, err := users.SetApproval(app, c.Admin, c.Admin.Id, roles.Suspended); !errors.Is(err, users.ErrOwnApproval) {
		t.Fatalf("own approval: %v", err)
	}
	if n := sent(); n != 0 {
		t.Fatalf("no change and a refused change sent %d, want 0", n)
	}
	if err := users.Delete(app, c.Admin, rec.Id); err != nil {
		t.Fatal(err)
	}
	if n := sent(); n != 1 {
		t.Fatalf("delete sent %d, want 1", n)
	}
}
