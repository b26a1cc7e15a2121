package terms_test

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/testkit"
	"swapbay/lib/schema"
	"swapbay/modules/terms"
)

func TestActiveTerms(t *testing.T) {
	t.Parallel()
	for _, who := range testkit.AllCallers {
		factory, headers := testkit.As(who, nil)
		s := tests.ApiScenario{
			Name: "as " + who, Method: http.MethodGet, URL: "/api/terms-content/active",
			Headers: headers, TestAppFactory: factory,
			ExpectedStatus: 200,
			ExpectedContent: []string{
				`"id":"`,
				`"title":"Micromobility Independent Contractor Agreement and Terms of Service"`,
				`"version":"2025.1"`, `"effectiveDate":"2025-01-01"`, `"content":"<h1>Micromobility`,
			},
			NotExpectedContent: []string{`"isActive"`},
		}
		s.Test(t)
	}
	none := tests.ApiScenario{
		Name: "none active", Method: http.MethodGet, URL: "/api/terms-content/active",
		TestAppFactory: testkit.Factory(func(t testing.TB, app *tests.TestApp) {
			if _, err := app.DB().NewQuery("UPDATE terms_versions SET isActive = FALSE").Execute(); err != nil {
				t.Fatal(err)
			}
		}),
		ExpectedStatus: 404, ExpectedContent: []string{`"status":404`},
	}
	none.Test(t)
}

// TestSeededTermsAreTheTemplate: the migration installed exactly the exported template as the
// only active version.
func TestSeededTermsAreTheTemplate(t *testing.T) {
	t.Parallel()
	app := testkit.NewApp(t)
	defer app.Cleanup()
	v, err := terms.FindActive(app)
	if err != nil {
		t.Fatal(err)
	}
	tpl := terms.BuiltInTemplate()
	got := terms.Template{
		Title: v.GetString(schema.TermsTitle), Version: v.Label(),
		EffectiveDate: v.GetString(schema.TermsEffectiveDate), Content: v.Content(),
	}
	if got != tpl {
		t.Fatalf("seeded version differs from BuiltInTemplate: %+v", got.Title)
	}
	if n, _ := app.CountRecords(schema.TermsVersions); n != 1 {
		t.Fatalf("%d terms versions, want 1", n)
	}
}

// TestTemplateFigures pins the contract figures of spec part 2 §3.
func TestTemplateFigures(t *testing.T) {
	t.Parallel()
	c := terms.BuiltInTemplate().Content
	for _, want := range []string{
		"every Thursday", "first <strong>30 days</strong>", "<strong>100 tasks per week</strong>",
		"<strong>20% of your gross earnings</strong>", "<strong>before day 30</strong>", "<strong>20% of gross</strong>",
		"<strong>80% of gross earnings</strong>", "<strong>2.5%</strong>", "<strong>100 tasks</strong>",
		"<strong>capped at 90%</strong>", "<strong>no weekly task quota</strong>",
		"Battery allotments", "Non-compete", "<strong>1 year</strong>", "Confidentiality (NDA)",
		"Equipment responsibility", "Conduct", "1099",
	} {
		if !strings.Contains(c, want) {
			t.Errorf("template lacks %q", want)
		}
	}
}

func TestHash(t *testing.T) {
	t.Parallel()
	sum := sha256.Sum256([]byte("<p>x</p>"))
	if got := terms.Hash("<p>x</p>"); got != hex.EncodeToString(sum[:]) || len(got) != 64 {
		t.Fatalf("Hash = %s", got)
	}
}
