package system

import (
	"encoding/json"
	"slices"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/httpx"
	"swapbay/lib/schema"
)

// Change is one raw write the guards allowed through PocketBase's record API or its /_/
// dashboard (hooks/): who made it, on which record, which fields.
type Change struct {
	Actor      string   // the writer's email
	ActorId    string   // the writer's record id
	ActorKind  string   // the writer's collection (_superusers, users)
	Action     string   // schema.AuditActionCreate, …Update, …Delete
	Collection string   // the collection written
	Record     string   // the record's id
	Fields     []string // the fields the write set or changed
}

// RecordChange adds c to the audit list. Call it inside the write's own transaction, so the
// change and its row commit together or not at all.
func RecordChange(txApp core.App, c Change) error {
	col, err := txApp.FindCachedCollectionByNameOrId(schema.AuditLog)
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

// AuditEntry is one row of the System page's audit list (GET /api/admin/audit).
type AuditEntry struct {
	Id         string   `json:"id"`
	At         string   `json:"at"`
	Actor      string   `json:"actor"`
	ActorKind  string   `json:"actorKind"`
	Action     string   `json:"action"`
	Collection string   `json:"collection"`
	RecordId   string   `json:"recordId"`
	Fields     []string `json:"fields"`
}

// ListAudit answers the newest schema.AuditListLimit rows of the audit list, newest first.
func ListAudit(app core.App) ([]AuditEntry, error) {
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
		From(schema.AuditLog).OrderBy(schema.Created+" DESC", "rowid DESC").Limit(schema.AuditListLimit).
		All(&rows)
	if err != nil {
		return nil, err
	}
	out := make([]AuditEntry, 0, len(rows))
	for _, r := range rows {
		fields := []string{}
		_ = json.Unmarshal([]byte(r.Fields), &fields)
		out = append(out, AuditEntry{Id: r.Id, At: r.Created, Actor: r.Actor, ActorKind: r.ActorKind, Action: r.Action,
			Collection: r.Collection, RecordId: r.Record, Fields: fields})
	}
	return out, nil
}

func handleAudit(e *core.RequestEvent) error {
	list, err := ListAudit(e.App)
	return httpx.Reply(e, map[string]any{"entries": list}, err)
}
