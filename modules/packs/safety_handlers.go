package packs

import (
	"fmt"
	"net/http"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/httpx"
	"swapbay/lib/reqx"
)

// The pack safety handlers (issue 37): the damage report and the recall routes of Register.

type damageForm struct {
	Note       string   `json:"note"`
	Photos     []string `json:"photos"`
	OccurredAt string   `json:"occurredAt"`
}

func handleDamage(e *core.RequestEvent, f *damageForm) error {
	at, err := reqx.OccurredAt(f.OccurredAt)
	if err != nil {
		return apierr.Response(e, err)
	}
	v := viewer(e)
	p, quarantined, err := ReportDamage(e.App, Damage{Serial: e.Request.PathValue("serial"), Note: f.Note, Photos: f.Photos,
		OccurredAt: at, Actor: e.Auth.Id, Driver: v.Driver}, clock.Now())
	if err != nil {
		return apierr.Response(e, err)
	}
	msg := fmt.Sprintf(MsgDamageReported, p.Serial())
	if !quarantined {
		msg = fmt.Sprintf(MsgDamageRecorded, p.Serial(), StateLabel(p.State()))
	}
	// a driver who dropped the pack off no longer holds it: they get the pack as an admin would
	// see its identity, without its history
	d, err := PackDetail(e.App, Viewer{UserId: e.Auth.Id}, p.Serial())
	if err != nil {
		return apierr.Response(e, err)
	}
	if v.Driver {
		d.History = []HistoryEvent{}
	}
	return e.JSON(http.StatusOK, map[string]any{"success": true, "message": msg, "pack": d})
}

func handleRecallPreview(e *core.RequestEvent) error {
	q := e.Request.URL.Query()
	p, err := RecallPreview(e.App, q.Get("by"), q.Get("value"))
	return httpx.Reply(e, p, err)
}

func handleRecall(e *core.RequestEvent, f *RecallForm) error {
	r, err := Recall(e.App, *f, e.Auth.Id, clock.Now())
	msg := fmt.Sprintf(MsgRecalled, r.PackCount, r.By, r.Value)
	if r.PackCount == 0 {
		msg = fmt.Sprintf(MsgRecallStanding, r.By, r.Value) // a standing recall (head office's)
	}
	return httpx.Reply(e, map[string]any{"success": true, "message": msg, "recall": r}, err)
}

func handleRecalls(e *core.RequestEvent) error {
	list, err := Recalls(e.App)
	return httpx.Reply(e, list, err)
}

func handleRecallDetail(e *core.RequestEvent) error {
	d, err := RecallDetail(e.App, e.Request.PathValue("id"))
	return httpx.Reply(e, d, err)
}
