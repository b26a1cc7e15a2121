package realtime

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"swapbay/lib/events"
)

// Keep-alive and back-pressure limits of a socket.
const (
	AuthTimeout  = 10 * time.Second // to send the auth message after the upgrade
	PingInterval = 25 * time.Second
	ReadTimeout  = 60 * time.Second // without a pong or message, the client is gone
	WriteTimeout = 10 * time.Second
	SendQueue    = 32 // messages queued per client; a client that falls further behind is dropped
	MaxInbound   = 4 << 10
)

// CloseSlowClient is the close code for a client dropped for falling behind; the browser
// reconnects after 3 s on any code but 1000, 1008 and 1011 (spec part 1 §4).
const CloseSlowClient = websocket.CloseTryAgainLater

// Hub fans published messages out to the connected clients.
type Hub struct {
	mu      sync.Mutex
	clients map[*client]struct{}
	closed  bool
	wg      sync.WaitGroup
}

// NewHub returns an empty hub.
func NewHub() *Hub { return &Hub{clients: map[*client]struct{}{}} }

// client is one authenticated socket.
type client struct {
	conn      *websocket.Conn
	userId    string
	sessionId string
	send      chan *websocket.PreparedMessage
	quit      chan int // receives the close code once; closed by drop
	once      sync.Once
}

func (c *client) drop(code int) {
	c.once.Do(func() {
		c.quit <- code
		close(c.quit)
	})
}

// Publish queues msg for every client without blocking; clients whose queue is full are dropped.
// The frame is prepared once and shared by every socket's writer (10,000 sockets get one
// encoding, not 10,000).
func (h *Hub) Publish(msg events.Message) {
	if msg.Type == events.SessionsRevoked {
		if r, ok := msg.Data.(events.Revocation); ok {
			h.CloseSessions(r)
		}
	}
	if events.Internal(msg.Type) {
		return
	}
	data, err := json.Marshal(msg)
	if err != nil {
		return
	}
	pm, err := websocket.NewPreparedMessage(websocket.TextMessage, data)
	if err != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.clients {
		select {
		case c.send <- pm:
		default:
			delete(h.clients, c)
			c.drop(CloseSlowClient)
		}
	}
}

// CloseSessions closes, with 1008, the sockets of the ended sessions r names (all of the
// user's when r.SessionId is empty): a revoked session keeps no live channel.
func (h *Hub) CloseSessions(r events.Revocation) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.clients {
		if c.userId == r.UserId && (r.SessionId == "" || c.sessionId == r.SessionId) {
			delete(h.clients, c)
			c.drop(websocket.ClosePolicyViolation)
		}
	}
}

// Clients reports how many sockets are connected and authenticated.
func (h *Hub) Clients() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.clients)
}

func (h *Hub) add(c *client) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.clients[c] = struct{}{}
	return true
}

func (h *Hub) remove(c *client) {
	h.mu.Lock()
	delete(h.clients, c)
	h.mu.Unlock()
}

// Close says goodbye (1001) to every client and waits briefly for their goroutines.
func (h *Hub) Close() {
	h.mu.Lock()
	h.closed = true
	for c := range h.clients {
		delete(h.clients, c)
		c.drop(websocket.CloseGoingAway)
	}
	h.mu.Unlock()

	done := make(chan struct{})
	go func() { h.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
	}
}
