package realtime

import (
	"testing"

	"github.com/gorilla/websocket"

	"swapbay/lib/events"
)

func TestSlowClientIsDropped(t *testing.T) {
	h := NewHub()
	slow := &client{send: make(chan *websocket.PreparedMessage, SendQueue), quit: make(chan int, 1)}
	if !h.add(slow) {
		t.Fatal("add refused")
	}
	for i := 0; i < SendQueue; i++ {
		h.Publish(events.Message{Type: events.InventoryUpdated})
	}
	if h.Clients() != 1 {
		t.Fatal("client dropped before its queue was full")
	}
	h.Publish(events.Message{Type: events.InventoryUpdated})
	if h.Clients() != 0 {
		t.Fatal("slow client kept")
	}
	if code := <-slow.quit; code != CloseSlowClient {
		t.Fatalf("close code %d", code)
	}
	h.Close()
	if h.add(&client{}) {
		t.Fatal("closed hub accepted a client")
	}
}
