package testkit

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
)

// Handler returns app's full router as `serve` builds it (apis.NewRouter, then the OnServe
// hooks: PocketBase's middlewares and every SwapBay route), for tests that need more than
// tests.ApiScenario gives: many requests on one app, or a real server.
func Handler(t testing.TB, app core.App) http.Handler {
	t.Helper()
	router, err := apis.NewRouter(app)
	if err != nil {
		t.Fatal(err)
	}
	var mux http.Handler
	err = app.OnServe().Trigger(&core.ServeEvent{App: app, Router: router}, func(e *core.ServeEvent) error {
		m, err := e.Router.BuildMux()
		mux = m
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return mux
}

// Serve starts a real HTTP server over Handler(app) (websockets, concurrent clients) and
// closes it when t ends.
func Serve(t testing.TB, app core.App) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(Handler(t, app))
	t.Cleanup(srv.Close)
	return srv
}
