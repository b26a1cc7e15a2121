package auth_test

import (
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/testkit"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/terms"
)

// agreementPDFText waits for agreement a's PDF (made in the background once the signing
// commits) and reads it back with poppler's pdftotext.
func agreementPDFText(t testing.TB, app core.App, a *core.Record) string {
	t.Helper()
	terms.WaitForPDFs(app)
	a, err := app.FindRecordById(schema.Agreements, a.Id)
	if err != nil {
		t.Fatal(err)
	}
	fsys, err := app.NewFilesystem()
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.Close()
	r, err := fsys.GetReader(a.BaseFilesPath() + "/" + a.GetString(schema.AgreementPDF))
	if err != nil {
		t.Fatalf("no PDF stored: %v", err)
	}
	defer r.Close()
	pdf, _ := io.ReadAll(r)
	in := filepath.Join(t.TempDir(), "agreement.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Fatal("pdftotext not found: run make tools (apt-get install poppler-utils)")
	}
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", in, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

// A registration signed by typing stores the method and the typed name, and its PDF says
// "Signed by typing: <name>"; one signed by drawing (no method sent, as older clients do)
// says "Signed by drawing".
func TestRegisterSignedByTyping(t *testing.T) {
	t.Parallel()
	for _, r := range []struct {
		name, method, text string
		wantMethod         string
		wantText           string
		wantPDF, notPDF    string
	}{
		{"typed", "typed", "  Zoë Typed-Name  ", "typed", "Zoë Typed-Name", "Signed by typing: Zoë Typed-Name", "Signed by drawing"},
		{"drawn", "drawn", "", "drawn", "", "Signed by drawing", "Signed by typing"},
		{"no method", "", "", "drawn", "", "Signed by drawing", "Signed by typing"},
	} {
		form := registration(t, "typed-"+strings.ReplaceAll(r.name, " ", "")+"@example.com")
		if r.method != "" {
			form["signatureMethod"] = r.method
		}
		if r.text != "" {
			form["signatureText"] = r.text
		}
		s := tests.ApiScenario{
			Name: r.name, Method: http.MethodPost, URL: "/api/register", Body: body(form),
			TestAppFactory: testkit.Factory(func(t testing.TB, app *tests.TestApp) {
				testkit.CreateUser(t, app, roles.MasterAdmin, roles.Approved)
			}),
			ExpectedStatus: 200, ExpectedContent: []string{`"isApproved":"pending"`},
			AfterTestFunc: func(t testing.TB, app *tests.TestApp, res *http.Response) {
				u, err := app.FindAuthRecordByEmail(schema.Users, form["email"].(string))
				if err != nil {
					t.Fatal(err)
				}
				ag, err := app.FindFirstRecordByData(schema.Agreements, schema.AgreementUser, u.Id)
				if err != nil {
					t.Fatalf("no agreement: %v", err)
				}
				if got := ag.GetString(schema.AgreementSignatureMethod); got != r.wantMethod {
					t.Errorf("signatureMethod %q, want %q", got, r.wantMethod)
				}
				if got := ag.GetString(schema.AgreementSignatureText); got != r.wantText {
					t.Errorf("signatureText %q, want %q", got, r.wantText)
				}
				text := agreementPDFText(t, app, ag)
				if !strings.Contains(text, r.wantPDF) {
					t.Errorf("the PDF lacks %q:\n%s", r.wantPDF, text[max(0, len(text)-1200):])
				}
				if strings.Contains(text, r.notPDF) {
					t.Errorf("the PDF holds %q", r.notPDF)
				}
			},
		}
		s.Test(t)
	}
}

// The signing method is validated like the rest of the form: a 400 naming the field, and
// nothing created.
func TestSignatureMethodValidation(t *testing.T) {
	t.Parallel()
	valid := registration(t, "method@example.com")
	typed := with(with(valid, "signatureMethod", "typed"), "signatureText", "Reg Istrant")
	for _, r := range []struct {
		name string
		form map[string]any
		want string
	}{
		{"unknown method", with(valid, "signatureMethod", "stamped"), `"signatureMethod":{"code":"validation_invalid","message":"The signature method must be drawn or typed"`},
		{"typed without a name", with(typed, "signatureText", "   "), `"signatureText":{"code":"validation_invalid","message":"Type your name to sign"`},
		{"typed name too long", with(typed, "signatureText", strings.Repeat("é", 101)), `"message":"The typed name must be at most 100 characters`},
		{"drawn with a typed name", with(valid, "signatureText", "Reg"), `"message":"A drawn signature has no typed name`},
		{"typed without an image", with(typed, "signatureData", ""), `"message":"A signature is required`},
	} {
		s := tests.ApiScenario{
			Name: r.name, Method: http.MethodPost, URL: "/api/register", Body: body(r.form),
			TestAppFactory: testkit.Factory(func(t testing.TB, app *tests.TestApp) {
				testkit.CreateUser(t, app, roles.MasterAdmin, roles.Approved)
			}),
			ExpectedStatus: 400, ExpectedContent: []string{r.want},
			AfterTestFunc: wantNothingCreated(1),
		}
		s.Test(t)
	}
	// re-signing checks the same way, and a typed re-sign is recorded as typed
	factory, headers := testkit.As(testkit.Driver, forceResign)
	bad := tests.ApiScenario{
		Name: "re-sign typed without a name", Method: http.MethodPost, URL: "/api/terms/sign",
		Body:    body(map[string]any{"acceptedTerms": true, "signatureData": dataURL(signaturePNG(t)), "signatureMethod": "typed"}),
		Headers: headers, TestAppFactory: factory,
		ExpectedStatus: 400, ExpectedContent: []string{`"message":"Type your name to sign`},
		AfterTestFunc: func(t testing.TB, app *tests.TestApp, res *http.Response) {
			if n := count(t, app, schema.Agreements); n != 0 {
				t.Errorf("%d agreements created", n)
			}
		},
	}
	bad.Test(t)
	factory, headers = testkit.As(testkit.Driver, forceResign)
	good := tests.ApiScenario{
		Name: "re-sign typed", Method: http.MethodPost, URL: "/api/terms/sign",
		Body:    body(map[string]any{"acceptedTerms": true, "signatureData": dataURL(signaturePNG(t)), "signatureMethod": "typed", "signatureText": "Dee River"}),
		Headers: headers, TestAppFactory: factory,
		ExpectedStatus: 200, ExpectedContent: []string{`"mustResignTerms":false`},
		AfterTestFunc: func(t testing.TB, app *tests.TestApp, res *http.Response) {
			ag, err := app.FindFirstRecordByFilter(schema.Agreements, "id != ''")
			if err != nil {
				t.Fatal(err)
			}
			if ag.GetString(schema.AgreementSignatureMethod) != "typed" || ag.GetString(schema.AgreementSignatureText) != "Dee River" {
				t.Errorf("agreement method %q text %q", ag.GetString(schema.AgreementSignatureMethod), ag.GetString(schema.AgreementSignatureText))
			}
			if text := agreementPDFText(t, app, ag); !strings.Contains(text, "Signed by typing: Dee River") {
				t.Errorf("the PDF lacks the typed statement")
			}
		},
	}
	good.Test(t)
}
