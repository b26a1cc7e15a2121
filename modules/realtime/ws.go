package realtime

import (
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/httpx"
)

// authMessage is the client's first message (spec part 1 §3 "Auth message").
type authMessage struct {
	Type   string `json:"type"`
	UserId string `json:"userId"`
}

// upgrader keeps per-socket memory small for thousands of idle sockets: inbound messages
// are tiny (the auth message), and write buffers come from a pool, held only while writing.
var upgrader = websocket.Upgrader{
	ReadBufferSize:  512,
	WriteBufferSize: 1024,
	WriteBufferPool: &sync.Pool{},
	CheckOrigin:     sameOrigin,
}

// authOK is the answer to a valid auth message.
var authOK = mustPrepare(`{"type":"AUTH_OK"}`)

func mustPrepare(text string) *websocket.PreparedMessage {
	pm, err := websocket.NewPreparedMessage(websocket.TextMessage, []byte(text))
	if err != nil {
		panic(err)
	}
	return pm
}

// sameOrigin allows requests without an Origin (non-browser clients) and browsers on this
// server: the same scheme and host (DESIGN.md §5), as httpx.SameOrigin does for writes.
func sameOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	return origin == "" || httpx.SameOriginURL(origin, r)
}

// serveWS upgrades an approved user's request and runs the socket until it ends.
func serveWS(hub *Hub, e *core.RequestEvent) error {
	if !sameOrigin(e.Request) {
		return apierr.NewCode(http.StatusForbidden, "", "Cross-site request refused.", apierr.CodeCrossSite)
	}
	userId, sessionId := e.Auth.Id, httpx.SessionId(e)
	conn, err := upgrader.Upgrade(e.Response, e.Request, nil)
	if err != nil {
		return nil // the upgrader has already answered with an HTTP error
	}
	hub.wg.Add(1)
	go func() {
		defer hub.wg.Done()
		run(hub, conn, userId, sessionId, func() bool { return httpx.SessionAlive(e.App, sessionId, userId) })
	}()
	return nil
}

// run waits for the auth message, then pumps hub messages out and reads (discarding) until
// the client goes away, falls behind or the hub closes.
func run(hub *Hub, conn *websocket.Conn, userId, sessionId string, alive func() bool) {
	defer conn.Close()
	conn.SetReadLimit(MaxInbound)
	_ = conn.SetReadDeadline(clock.Deadline(AuthTimeout))
	var auth authMessage
	if _, data, err := conn.ReadMessage(); err != nil || json.Unmarshal(data, &auth) != nil ||
		auth.Type != "auth" || auth.UserId != userId {
		closeWith(conn, websocket.ClosePolicyViolation, "authentication failed")
		return
	}

	c := &client{conn: conn, userId: userId, sessionId: sessionId, send: make(chan *websocket.PreparedMessage, SendQueue), quit: make(chan int, 1)}
	c.send <- authOK
	if !hub.add(c) {
		closeWith(conn, websocket.CloseGoingAway, "server shutting down")
		return
	}
	defer hub.remove(c)
	if !alive() { // the session ended while the socket was signing in
		closeWith(conn, websocket.ClosePolicyViolation, "session ended")
		return
	}

	// Reader: keeps the read deadline moving on pongs and notices when the client leaves.
	gone := make(chan struct{})
	go func() {
		defer close(gone)
		_ = conn.SetReadDeadline(clock.Deadline(ReadTimeout))
		conn.SetPongHandler(func(string) error { return conn.SetReadDeadline(clock.Deadline(ReadTimeout)) })
		for {
			if _, _, err := conn.ReadMessage(); err != nil {
				return
			}
			_ = conn.SetReadDeadline(clock.Deadline(ReadTimeout))
		}
	}()

	ping := time.NewTicker(PingInterval)
	defer ping.Stop()
	for {
		select {
		case pm := <-c.send:
			_ = conn.SetWriteDeadline(clock.Deadline(WriteTimeout))
			if err := conn.WritePreparedMessage(pm); err != nil {
				return
			}
		case <-ping.C:
			if err := conn.WriteControl(websocket.PingMessage, nil, clock.Deadline(WriteTimeout)); err != nil {
				return
			}
		case code := <-c.quit:
			closeWith(conn, code, "")
			return
		case <-gone:
			return
		}
	}
}

func closeWith(conn *websocket.Conn, code int, reason string) {
	_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), clock.Deadline(time.Second))
}
