// Package audit writes and lists an audit list: one row per raw write PocketBase's record API
// or its /_/ dashboard made and hooks/ allowed (who, when, which record and fields), written in
// the write's own transaction and never changed. The city keeps its list in audit_log
// (modules/system: the System page's Audit List, with head office's uses of its tokens), head
// office in hq_audit_log (modules/hq: the Cities page's); both collections have the fields of
// schema.Audit*.
package audit

import (
	"encoding/json"
	"slices"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/httpx"
	"swapbay/lib/schema"
)

// Change is one write to record: who made it, on which record, which fields.
type Change struct {
	Actor      string   // the writer's email
	ActorId    string   // the writer's record id
	ActorKind  string   // the writer's collection (_superusers, users)
	Action     string   // schema.AuditActionCreate, …Update, …Delete
	Collection string   // the collection written
	Record     string   // the record's id
	Fields     []string // the fields the write set or changed
}

// Record adds c to the audit list kept in collection. Call it inside the write's own
// transaction, so the change and its row commit together or not at all.
func Record(txApp core.App, collection string, c Change) error {
	col, err := txApp.FindCachedCollectionByNameOrId(collection)
	if err != nil {
		return err
	}
	fields := slices.Clone(c.Fields)
	slices.Sort(fields)
	if fields == nil {
		fields = []string{}
	}
	rec := core.NewRecord(col)
	rec.Set(schema.AuditActor, c.Actor)
	rec.Set(schema.AuditActorId, c.ActorId)
	rec.Set(schema.AuditActorKind, c.ActorKind)
	rec.Set(schema.AuditAction, c.Action)
	rec.Set(schema.AuditCollection, c.Collection)
	rec.Set(schema.AuditRecord, c.Record)
	rec.Set(schema.AuditFields, fields)
	return txApp.SaveNoValidate(rec)
}

// Entry is one row of an audit list as its route answers it.
type Entry struct {
	Id         string   `json:"id"`
	At         string   `json:"at"`
	Actor      string   `json:"actor"`
	ActorKind  string   `json:"actorKind"`
	Action     string   `json:"action"`
	Collection string   `json:"collection"`
	RecordId   string   `json:"recordId"`
	Fields     []string `json:"fields"`
}

// List answers the newest schema.AuditListLimit rows of the audit list kept in collection,
// newest first.
func List(app core.App, collection string) ([]Entry, error) {
	var rows []struct {
		Id         string `db:"id"`
		Created    string `db:"created"`
		Actor      string `db:"actor"`
		ActorKind  string `db:"actorKind"`
		Action     string `db:"action"`
		Collection string `db:"collection"`
		Record     string `db:"record"`
		Fields     string `db:"fields"`
	}
	err := app.DB().Select("id", schema.Created, schema.AuditActor, schema.AuditActorKind, schema.AuditAction,
		schema.AuditCollection, schema.AuditRecord, "COALESCE("+schema.AuditFields+", '[]') AS "+schema.AuditFields).
		From(collection).OrderBy(schema.Created+" DESC", "rowid DESC").Limit(schema.AuditListLimit).
		All(&rows)
	if err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(rows))
	for _, r := range rows {
		fields := []string{}
		_ = json.Unmarshal([]byte(r.Fields), &fields)
		out = append(out, Entry{Id: r.Id, At: r.Created, Actor: r.Actor, ActorKind: r.ActorKind, Action: r.Action,
			Collection: r.Collection, RecordId: r.Record, Fields: fields})
	}
	return out, nil
}

// Handler answers a read of the audit list kept in collection, {entries: [Entry]} (the city's
// GET /api/admin/audit, head office's GET /api/hq/audit; each route binds who may call it).
func Handler(collection string) func(*core.RequestEvent) error {
	return func(e *core.RequestEvent) error {
		list, err := List(e.App, collection)
		return httpx.Reply(e, map[string]any{"entries": list}, err)
	}
}
