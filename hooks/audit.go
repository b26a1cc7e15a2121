package hooks

import (
	"errors"
	"slices"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"

	"swapbay/lib/apierr"
	"swapbay/lib/audit"
	"swapbay/lib/schema"
)

// recorder adds one allowed raw write to an app's audit list, inside the write's own
// transaction: the city's system.RecordChange, head office's hq.RecordChange.
type recorder func(txApp core.App, c audit.Change) error

// bindAudit records, with record, every raw write app's door lets through.
func bindAudit(app core.App, record recorder) {
	write := audited(record)
	// every raw write the guards allow is recorded on the app's audit list (the city's System
	// page, head office's Cities page) — who, when, which record and fields — in the write's
	// own transaction (never only in PocketBase's logs)
	app.OnRecordCreateRequest().Bind(named(RawCreateId+"Audit", rawAuditPriority, forAction(write, schema.AuditActionCreate)))
	app.OnRecordUpdateRequest().Bind(named(RawUpdateId+"Audit", rawAuditPriority, forAction(write, schema.AuditActionUpdate)))
	app.OnRecordDeleteRequest().Bind(named(RawDeleteId+"Audit", rawAuditPriority, forAction(write, schema.AuditActionDelete)))
}

// audited runs the write and its audit row (record) in one transaction (the record routes
// write their answer after the commit, so a failed audit row fails the write).
func audited(record recorder) func(e *core.RecordRequestEvent, action string) error {
	return func(e *core.RecordRequestEvent, action string) error {
		var fields []string
		if action == schema.AuditActionUpdate {
			fields = changedFields(e.Record)
			if body, err := e.RequestInfo(); err == nil {
				if _, ok := body.Body[core.FieldNamePassword]; ok && e.Collection.IsAuth() && !slices.Contains(fields, core.FieldNamePassword) {
					fields = append(fields, core.FieldNamePassword)
				}
			}
		}
		return e.App.RunInTransaction(func(txApp core.App) error {
			e.App = txApp
			if err := e.Next(); err != nil {
				return plainError(err)
			}
			if action == schema.AuditActionCreate {
				fields = setFields(e.Record)
			}
			if action == schema.AuditActionUpdate && len(fields) == 0 {
				return nil // a save that changed no field (only unknown or equal values) changed nothing to record
			}
			c := audit.Change{Action: action, Collection: e.Collection.Name, Record: e.Record.Id, Fields: fields, Actor: "guest"}
			if e.Auth != nil {
				c.Actor, c.ActorId, c.ActorKind = e.Auth.Email(), e.Auth.Id, e.Auth.Collection().Name
			}
			return record(txApp, c)
		})
	}
}

// setFields lists the fields a create gave a value (the id and autodates left out).
func setFields(rec *core.Record) []string {
	var out []string
	for _, f := range rec.Collection().Fields {
		name := f.GetName()
		if name == core.FieldNameId || f.Type() == core.FieldTypeAutodate {
			continue
		}
		zero, _ := f.PrepareValue(rec, nil)
		if v := rec.GetRaw(name); v != nil && !sameValue(v, zero) {
			out = append(out, name)
		}
	}
	return out
}

// plainError answers a refusal of an invariant hook as itself: the record routes wrap a save's
// error in their own "Failed to update record." (400), which would hide from the /_/ toast
// which rule refused it (the last master admin, a role value).
func plainError(err error) error {
	var apiErr *router.ApiError
	if !errors.As(err, &apiErr) {
		return err
	}
	inner, ok := apiErr.RawData().(error)
	if !ok {
		return err
	}
	var de *apierr.Error
	if errors.As(inner, &de) {
		return apierr.New(apierr.Status(de), de.Field, de.Message)
	}
	var innerAPI *router.ApiError
	if errors.As(inner, &innerAPI) {
		return innerAPI
	}
	return err
}
