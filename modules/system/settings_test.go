package system_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/apierr"
	"swapbay/lib/settings"
	"swapbay/modules/system"
)

// backupKeep stands for a key another module registers (backups, earnings): the settings
// API stores and checks it without system knowing about it.
var backupKeep = settings.Register(settings.Key[int]{
	Name: "test_backup_keep", Default: 7, Parse: settings.ParseInt,
	Check: func(name, text string) (string, error) {
		if n, err := strconv.Atoi(text); err != nil || n < 0 || n > 365 {
			return "", apierr.Invalid(name, "Backups to keep must be a whole number from 0 to 365")
		}
		return text, nil
	},
})

func TestSettingsAPIStoresRegisteredKeys(t *testing.T) {
	const url = "/api/admin/settings"
	post := func(value string) func(testing.TB, *tests.TestApp, testkit.Callers) (string, string) {
		return fixed(url, `{"settings":[{"key":"test_backup_keep","value":`+value+`}]}`)
	}
	readBack := func(want int) func(testing.TB, *tests.TestApp, ledgertest.State, map[string]any) {
		return func(t testing.TB, app *tests.TestApp, _ ledgertest.State, _ map[string]any) {
			if got := ledgertest.Must(backupKeep.Read(app))(t); got != want {
				t.Fatalf("Read = %d, want %d", got, want)
			}
			if got := backupKeep.Get(ledgertest.Must(system.Load(app))(t).Values); got != want {
				t.Fatalf("Get(system.Load().Values) = %d, want %d", got, want)
			}
		}
	}
	ledgertest.Run(t, []ledgertest.Case{
		{Name: "stored", Who: testkit.Admin, Method: "POST", Prepare: post("30"), Status: 200,
			Contains: []string{`"message":"Settings saved successfully!"`}, Check: readBack(30)},
		{Name: "its own check refuses", Who: testkit.Admin, Method: "POST", Prepare: post(`"400"`), Status: 400,
			Contains: []string{`"message":"Backups to keep must be a whole number from 0 to 365"`, `"test_backup_keep"`}},
		{Name: "a prompt over the limit", Who: testkit.Admin, Method: "POST",
			Prepare: fixed(url, `{"settings":[{"key":"pickup_prompt","value":"`+strings.Repeat("x", system.MaxPromptLength+1)+`"}]}`),
			Status:  400, Contains: []string{`"message":"Prompts can be at most 500 characters"`}},
	})
	// Never saved: the default, no error.
	app := testkit.NewApp(t)
	defer app.Cleanup()
	readBack(7)(t, app, ledgertest.State{}, nil)
}
