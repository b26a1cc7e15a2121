package transfers

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strings"

	"github.com/pocketbase/pocketbase/core"
	qrcode "github.com/yeqown/go-qrcode/v2"

	"swapbay/lib/apierr"
	"swapbay/lib/httpx"
	"swapbay/lib/idempotency"
	"swapbay/modules/inventory"
)

// MaxList is how many transfers the list answers (newest first).
const MaxList = 200

// MaxQR is the longest manifest drawn as a QR code (a version-40 symbol at error correction
// Low holds 2,953 bytes); a longer one is copied as text.
const MaxQR = 2900

// MsgQRTooLong answers a QR asked for a manifest too long to draw.
const MsgQRTooLong = "This manifest is too long for a QR code: copy it as text"

// Register adds the transfer routes (admin and master_admin only) and removes a send's row
// when its movement is deleted on the Activity page (inventory.OnDelete):
//
//	POST /api/admin/packs/transfers          {toCity (1..100), toAddress? ("" or https://…), serials: [serial or label URL] 1..200,
//	                                          notes? (≤ 2000), fromCity? (this city's name in the manifest; default the app's name)}
//	     → 201 {success, message, transfer: Transfer, stats}  (keyed; one transfer_out movement)
//	     400 a bad field (named), pack_unknown / pack_count naming packs; 409 pack_in_transit, pack_quarantined,
//	     pack_retired, pack_state (not in service, not on the ready or waiting shelf), every pack in data.packs;
//	     409 while pack tracking is off
//	GET  /api/admin/packs/transfers          → [Transfer] newest first (at most 200)
//	GET  /api/admin/packs/transfers/{id}     → Transfer (404)
//	GET  /api/admin/packs/transfers/{id}/qr  → image/png: the send's manifest as a QR code (404; 409 when too long: copy the text)
//	POST /api/admin/packs/transfers/receive  {manifest, serials: [serial or label URL] 1..200, to: ready|waiting}
//	     → 201 {success, message, transfer: Transfer, stats}  (keyed; one transfer_in movement; one `in` row per receive)
//	     400 the manifest (named `manifest`: not one, too long, newer version, bad pack), a serial not in the manifest
//	     (pack_unknown) or scanned twice (pack_count); 409 a serial already received from this transfer or registered
//	     here (pack_state), this city's own send
//
// Transfer: {id, direction: out|in, ref, otherCity, otherAddress, at, actor: {name}, serials, received (in: every
// serial received from ref so far), expected (in: the manifest's serials; out: the sent ones), manifest (out only),
// movement, notes}.
func Register(app core.App) {
	inventory.OnDelete(inventory.TypeTransferOut, deleteSent)
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		g := se.Router.Group("/api/admin/packs/transfers")
		g.Bind(httpx.RequireAdmin())
		g.POST("", httpx.FormUpTo(idempotency.MaxBody, handleSend)).Bind(idempotency.Keyed())
		g.POST("/receive", httpx.FormUpTo(idempotency.MaxBody, handleReceive)).Bind(idempotency.Keyed())
		g.GET("", handleList)
		g.GET("/{id}", handleGet)
		g.GET("/{id}/qr", handleQR)
		return se.Next()
	})
}

type sendForm struct {
	ToCity    string   `json:"toCity"`
	ToAddress string   `json:"toAddress"`
	Serials   []string `json:"serials"`
	Notes     string   `json:"notes"`
	FromCity  string   `json:"fromCity"`
}

func handleSend(e *core.RequestEvent, f *sendForm) error {
	from := City{Name: strings.TrimSpace(f.FromCity), Address: httpx.RequestScheme(e.Request) + "://" + e.Request.Host}
	if from.Name == "" {
		from.Name = e.App.Settings().Meta.AppName
	}
	var err error
	if from.Name, err = cityName("fromCity", from.Name); err != nil {
		return apierr.Response(e, err)
	}
	if from.Address, err = address("fromCity", from.Address); err != nil {
		from.Address = "" // a plain-http address other than this machine's is not named
	}
	var stats inventory.Snapshot
	t, err := Send(e.App, inventory.Op{Actor: e.Auth, Stats: &stats}, SendInput{ToCity: f.ToCity, ToAddress: f.ToAddress,
		Serials: f.Serials, Notes: f.Notes, From: from})
	return replyTransfer(e, t, stats, err, sentMessage)
}

func sentMessage(t *Transfer) string {
	return "Sent " + packsWord(len(t.Serials)) + " to " + t.OtherCity
}

func receivedMessage(t *Transfer) string {
	return "Received " + packsWord(len(t.Serials)) + " from " + t.OtherCity
}

// replyTransfer answers a send or a receive: 201 {success, message (message(t)), transfer,
// stats}, or err as its ApiError.
func replyTransfer(e *core.RequestEvent, t *Transfer, stats inventory.Snapshot, err error, message func(*Transfer) string) error {
	if err != nil {
		return apierr.Response(e, err)
	}
	return e.JSON(http.StatusCreated, httpx.Succeeded(message(t), stats, map[string]any{"transfer": t}))
}

type receiveForm struct {
	Manifest string   `json:"manifest"`
	Serials  []string `json:"serials"`
	To       string   `json:"to"`
}

func handleReceive(e *core.RequestEvent, f *receiveForm) error {
	var stats inventory.Snapshot
	t, err := Receive(e.App, inventory.Op{Actor: e.Auth, Stats: &stats}, ReceiveInput{Manifest: f.Manifest, Serials: f.Serials, To: f.To})
	return replyTransfer(e, t, stats, err, receivedMessage)
}

func handleList(e *core.RequestEvent) error {
	list, err := List(e.App, MaxList)
	return httpx.Reply(e, list, err)
}

func handleGet(e *core.RequestEvent) error {
	t, err := Get(e.App, e.Request.PathValue("id"))
	return httpx.Reply(e, t, err)
}

func handleQR(e *core.RequestEvent) error {
	t, err := Get(e.App, e.Request.PathValue("id"))
	if err == nil && t.Manifest == "" {
		err = apierr.NotFound(MsgNotFound)
	}
	if err != nil {
		return apierr.Response(e, err)
	}
	if len(t.Manifest) > MaxQR {
		return apierr.Response(e, apierr.Conflict(MsgQRTooLong))
	}
	b, err := QRPNG(t.Manifest)
	if err != nil {
		return apierr.Response(e, err)
	}
	e.Response.Header().Set("Cache-Control", "private, no-store")
	return e.Blob(http.StatusOK, "image/png", b)
}

// QRPNG draws text as a QR code (error correction Low: the manifest is long, the screen clean),
// 4 pixels a module with a 4-module quiet zone.
func QRPNG(text string) ([]byte, error) {
	qr, err := qrcode.NewWith(text, qrcode.WithErrorCorrectionLevel(qrcode.ErrorCorrectionLow))
	if err != nil {
		return nil, err
	}
	bits := &bitmap{}
	if err := qr.Save(bits); err != nil {
		return nil, err
	}
	const scale, quiet = 4, 4
	n := len(bits.rows)
	side := (n + 2*quiet) * scale
	img := image.NewGray(image.Rect(0, 0, side, side))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for y, row := range bits.rows {
		for x, dark := range row {
			if !dark {
				continue
			}
			for dy := 0; dy < scale; dy++ {
				for dx := 0; dx < scale; dx++ {
					img.SetGray((x+quiet)*scale+dx, (y+quiet)*scale+dy, color.Gray{})
				}
			}
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// bitmap is a qrcode.Writer that keeps the symbol's modules (true = dark).
type bitmap struct{ rows [][]bool }

func (b *bitmap) Write(mat qrcode.Matrix) error {
	b.rows = mat.Bitmap()
	return nil
}

func (b *bitmap) Close() error { return nil }
