package packs

import (
	"fmt"
	"net/http"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/reqx"
)

// The pack safety handlers (issue 37): the damage report and the recall routes of Register.

type damageForm struct {
	Note       string   `json:"note"`
	Photos     []string `json:"photos"`
	OccurredAt string   `json:"occurredAt"`
}

func handleDamage(e *core.RequestEvent) error {
	var f damageForm
	if err := reqx.Decode(e, &f, 0); err != nil {
		return apierr.Response(e, err)
	}
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
	if err != nil {
		return apierr.Response(e, err)
	}
	return e.JSON(http.StatusOK, p)
}

func handleRecall(e *core.RequestEvent) error {
	var f RecallForm
	if err := reqx.Decode(e, &f, 0); err != nil {
		return apierr.Response(e, err)
	}
	r, err := Recall(e.App, f, e.Auth.Id, clock.Now())
	if err != nil {
		return apierr.Response(e, err)
	}
	return e.JSON(http.StatusOK, map[string]any{"success": true, "message": fmt.Sprintf(MsgRecalled, r.PackCount, r.By, r.Value), "recall": r})
}

func handleRecalls(e *core.RequestEvent) error {
	list, err := Recalls(e.App)
	if err != nil {
		return apierr.Response(e, err)
	}
	return e.JSON(http.StatusOK, list)
}

func handleRecallDetail(e *core.RequestEvent) error {
	d, err := RecallDetail(e.App, e.Request.PathValue("id"))
	if err != nil {
		return apierr.Response(e, err)
	}
	return e.JSON(http.StatusOK, d)
}
