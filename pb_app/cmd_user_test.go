package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/lib/sqlitedb"
	"swapbay/pb_app/setup"
)

// newCLIApp bootstraps a SwapBay app on a fresh, empty data dir, as `swapbay --dir` does.
func newCLIApp(t *testing.T) core.App {
	t.Helper()
	app := core.NewBaseApp(sqlitedb.AppConfig(t.TempDir()))
	if err := app.Bootstrap(); err != nil {
		t.Fatal(err)
	}
	setup.Register(app)
	t.Cleanup(func() { _ = app.ResetBootstrapState() })
	return app
}

func runUserCreate(app core.App, args ...string) (stdout string, err error) {
	cmd := newUserCommand(app)
	var out, errOut bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SetArgs(append([]string{"create"}, args...))
	err = cmd.Execute()
	return out.String(), err
}

func TestUserCreateOnEmptyDir(t *testing.T) {
	app := newCLIApp(t)
	out, err := runUserCreate(app, "--email= Boss@Example.com", "--password=secret123", "--role=master_admin", "--first=Ada", "--last=Admin")
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimSpace(out)
	if strings.Count(out, "\n") != 1 || len(id) != 15 {
		t.Fatalf("stdout must be only the id, got %q", out)
	}
	rec, err := app.FindRecordById(schema.Users, id)
	if err != nil {
		t.Fatalf("created id %s not found: %v", id, err)
	}
	if rec.Email() != "boss@example.com" || rec.GetString(schema.UserRole) != roles.MasterAdmin ||
		rec.GetString(schema.UserIsApproved) != roles.Approved || !rec.ValidatePassword("secret123") ||
		rec.GetBool(schema.UserMustResignTerms) || rec.GetInt(schema.UserPayReductionPercentage) != 20 {
		t.Fatalf("created user is not an approved master_admin with terms bypassed: %v", rec.PublicExport())
	}
	if n, _ := app.CountRecords(schema.Agreements); n != 0 {
		t.Fatal("the CLI must not create an agreement")
	}
}

func TestUserCreateRefusesBadInput(t *testing.T) {
	app := newCLIApp(t)
	if _, err := runUserCreate(app, "--email=taken@example.com", "--password=secret123", "--role=admin", "--first=A", "--last=B"); err != nil {
		t.Fatal(err)
	}
	cases := map[string][]string{
		"--email":    {"--email=TAKEN@example.com", "--password=secret123", "--role=driver", "--first=A", "--last=B"},
		"--password": {"--email=p@example.com", "--password=123", "--role=driver", "--first=A", "--last=B"},
		"--role":     {"--email=r@example.com", "--password=secret123", "--role=boss", "--first=A", "--last=B"},
		"--first":    {"--email=f@example.com", "--password=secret123", "--role=driver", "--last=B"},
		"email":      {"--email=not-an-email", "--password=secret123", "--role=driver", "--first=A", "--last=B"},
	}
	for flag, args := range cases {
		out, err := runUserCreate(app, args...)
		if err == nil || !strings.Contains(err.Error(), flag) {
			t.Errorf("%v: want an error naming %s, got %v", args, flag, err)
		}
		if out != "" {
			t.Errorf("%v: nothing may go to stdout on error, got %q", args, out)
		}
	}
	if n, _ := app.CountRecords(schema.Users); n != 1 {
		t.Fatalf("refused commands created users: %d", n)
	}
}
