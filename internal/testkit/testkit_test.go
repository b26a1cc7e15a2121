package testkit_test

import (
	"net/http"
	"testing"

	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/testkit"
)

func TestUnknownAPIPathIsJSON404(t *testing.T) {
	s := tests.ApiScenario{
		Method:          http.MethodGet,
		URL:             "/api/does-not-exist",
		ExpectedStatus:  404,
		ExpectedContent: []string{`"status":404`},
		TestAppFactory:  testkit.Factory(nil),
	}
	s.Test(t)
}

func TestNativeUserListIsClosed(t *testing.T) {
	for _, who := range testkit.AllCallers {
		factory, headers := testkit.As(who, nil)
		s := tests.ApiScenario{
			Name:            "list users as " + who,
			Method:          http.MethodGet,
			URL:             "/api/collections/users/records",
			Headers:         headers,
			TestAppFactory:  factory,
			ExpectedStatus:  403,
			ExpectedContent: []string{`"status":403`},
		}
		s.Test(t)
	}
}
