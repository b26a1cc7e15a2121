package realtime_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/testkit"
	"swapbay/lib/events"
	"swapbay/lib/httpx"
)

func dial(t *testing.T, srv *httptest.Server, rec *core.Record, header http.Header) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	if header == nil {
		header = http.Header{}
	}
	if rec != nil {
		header.Set("Cookie", httpx.SessionCookie+"="+testkit.Token(t, rec))
	}
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
	return websocket.DefaultDialer.Dial(url, header)
}

// connect dials as rec, authenticates and waits for AUTH_OK.
func connect(t *testing.T, srv *httptest.Server, rec *core.Record) *websocket.Conn {
	t.Helper()
	conn, _, err := dial(t, srv, rec, nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { conn.Close() })
	if err := conn.WriteJSON(map[string]string{"type": "auth", "userId": rec.Id}); err != nil {
		t.Fatal(err)
	}
	if msg := read(t, conn); msg.Type != "AUTH_OK" {
		t.Fatalf("first message %+v, want AUTH_OK", msg)
	}
	return conn
}

func read(t *testing.T, conn *websocket.Conn) events.Message {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	var msg events.Message
	_, data, err := conn.ReadMessage()
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if err := json.Unmarshal(data, &msg); err != nil {
		t.Fatalf("decode %s: %v", data, err)
	}
	return msg
}

func TestUpgradeRefusedWithoutApprovedSession(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	c := testkit.SeedCallers(t, app)
	srv := testkit.Serve(t, app)

	for _, tc := range []struct {
		name   string
		rec    *core.Record
		header http.Header
		status int
	}{
		{"guest", nil, nil, http.StatusUnauthorized},
		{"pending", c.Pending, nil, http.StatusForbidden},
		{"cross-site", c.Driver, http.Header{"Origin": {"https://evil.example"}}, http.StatusForbidden},
	} {
		conn, res, err := dial(t, srv, tc.rec, tc.header)
		if err == nil {
			conn.Close()
			t.Fatalf("%s: upgrade accepted", tc.name)
		}
		if res == nil || res.StatusCode != tc.status {
			t.Fatalf("%s: response %v, want %d", tc.name, res, tc.status)
		}
	}
}

func TestWrongUserIdClosesWith1008(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	c := testkit.SeedCallers(t, app)
	srv := testkit.Serve(t, app)

	conn, _, err := dial(t, srv, c.Driver, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.WriteJSON(map[string]string{"type": "auth", "userId": c.Admin.Id}); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, _, err = conn.ReadMessage()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.ClosePolicyViolation {
		t.Fatalf("got %v, want close 1008", err)
	}
}

func TestCommittedChangeReachesOtherUsersSockets(t *testing.T) {
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	srv := testkit.Serve(t, app)

	admin := connect(t, srv, c.Admin)
	liaison := connect(t, srv, c.Liaison)

	// The driver records a pickup over HTTP: the events reach the other users' sockets.
	pickup(t, srv, c.Driver)
	for _, conn := range []*websocket.Conn{admin, liaison} {
		if msg := read(t, conn); msg.Type != events.InventoryUpdated {
			t.Fatalf("got %+v, want %s", msg, events.InventoryUpdated)
		}
		if msg := read(t, conn); msg.Type != events.ActivityUpdated {
			t.Fatalf("got %+v, want %s", msg, events.ActivityUpdated)
		}
	}

	// A rolled-back transaction publishes nothing; the next commit arrives first.
	_ = app.RunInTransaction(func(tx core.App) error {
		events.Publish(tx, events.EmergencyOverride)
		return errors.New("rollback")
	})
	events.Publish(app, events.ChargingUpdated)
	if msg := read(t, admin); msg.Type != events.ChargingUpdated {
		t.Fatalf("got %+v after rollback, want %s", msg, events.ChargingUpdated)
	}

	// Terminating the app closes the sockets with 1001.
	app.Cleanup()
	_ = admin.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, _, err := admin.ReadMessage()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.CloseGoingAway {
		t.Fatalf("after terminate got %v, want close 1001", err)
	}
}

// pickup posts a driver pickup through the real route with the driver's session cookie.
func pickup(t *testing.T, srv *httptest.Server, driver *core.Record) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/driver/pickup", strings.NewReader(`{"quantity":2,"notes":"Y"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Cookie", httpx.SessionCookie+"="+testkit.Token(t, driver))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("pickup: %d %s", res.StatusCode, body)
	}
}
