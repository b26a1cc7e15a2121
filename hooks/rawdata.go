package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"regexp"
	"slices"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/apierr"
	"swapbay/lib/order"
	"swapbay/lib/schema"
)

// The raw-data door (issue 43): PocketBase's record API, /api/collections/{c}/records (and its
// batch route), is what the /_/ dashboard uses to write. The ledger's tables are append-only
// for every writer but the ledger, so a raw write to them is refused with a message naming the
// app's way to do it; plain data stays editable, under the invariant hooks of its collection
// (users.go, terms.go, settings.go) and recorded on the System page's audit list (audit.go).
// The dashboard still reads everything.

// Refusals: each names the app's way to do it (the toast in /_/ shows the message).
const (
	MsgMovements    = "Movements are the ledger's record and cannot be changed here. Correct it on the Activity page."
	MsgAccounts     = "Balances follow the ledger's movements and cannot be changed here. Correct a movement on the Activity page, or use the Emergency Inventory Override on the System page."
	MsgSessions     = "Charging sessions move batteries through the ledger and cannot be changed here. Change a session on the Charging page."
	MsgPackState    = "A pack's state and place follow its movements and scans and cannot be changed here. Change a pack's state on its page."
	MsgPackCreate   = "Packs are minted or imported on the Packs page, not created here."
	MsgPackDelete   = "Packs are never deleted. Change a pack's state on its page (retired, recycled)."
	MsgPackEvents   = "A pack's history is append-only and cannot be changed here. Change a pack's state on its page."
	MsgRecalls      = "Recalls are kept as they were made and cannot be changed here. Start a recall on the Packs page."
	MsgIdempotency  = "Stored idempotency answers keep each action applied once and cannot be changed here."
	MsgAgreements   = "A signed agreement is evidence and cannot be changed here. Retry a failed PDF in the Signed agreements table on the System page."
	MsgPayRates     = "Pay rates are kept as history and cannot be changed here. Set new rates on the Earnings page."
	MsgAdjustments  = "Task adjustments are audited and cannot be changed here. Adjust a count on the Earnings page."
	MsgAuthSessions = "Sessions start only by signing in. A session can be ended (deleted) here."
	MsgReplication  = "Replication is set on the System page, not here."
	MsgPhotos       = "Photos are uploaded and deleted in the app (Photos page); only a photo's notes can be changed here."
	MsgAuditLog     = "The audit list is kept as it was written and cannot be changed."
	MsgHOTokens     = "Head-office tokens are issued and revoked on the System page, not here."
	MsgReadings     = "Pack readings are kept as they were imported and cannot be changed here. Import readings on the Packs page."
	MsgTransfers    = "Packs move between cities with the Packs page's Send and Receive, not here."
	MsgSchema       = "SwapBay's collections change only through its migrations, not here."
)

// door is how the record API may write one collection.
type door struct {
	refuse   string   // the message when a write is refused; "" for plain data (all writes pass)
	editable []string // fields an update may change although refuse is set
	create   string   // the message refusing a create, when it differs from refuse ("" = refuse)
	delete   string   // the message refusing a delete, when it differs from refuse
	allowDel bool     // a delete passes although refuse is set
	plain    bool     // plain data: every write passes (its collection's hooks still apply)
}

// doorTable is one app's doors, by collection name.
type doorTable map[string]door

// doors lists every SwapBay collection (hooks' table test fails on a collection of the
// migrations missing here). A collection not listed is not SwapBay's — PocketBase's own
// (_superusers, …) or one a superuser made in /_/ (the bench's bench_items): its writes pass,
// recorded on the audit list, and its schema is its maker's.
var doors = doorTable{
	schema.Movements:        {refuse: MsgMovements},
	schema.Entries:          {refuse: MsgMovements},
	schema.Accounts:         {refuse: MsgAccounts},
	schema.ChargingSessions: {refuse: MsgSessions},
	// the registry's descriptive fields may be corrected (a typo in a lot or model); the serial
	// (printed on its label), its state, place, last sighting and charge count are the ledger's
	schema.Packs: {refuse: MsgPackState, create: MsgPackCreate, delete: MsgPackDelete, editable: []string{
		schema.PackModel, schema.PackChemistry, schema.PackNominalWh, schema.PackManufacturer,
		schema.PackLot, schema.PackManufactured,
	}},
	schema.PackEvents:      {refuse: MsgPackEvents},
	schema.PackRecalls:     {refuse: MsgRecalls},
	schema.PackReadings:    {refuse: MsgReadings},
	schema.PackTransfers:   {refuse: MsgTransfers},
	schema.IdempotencyKeys: {refuse: MsgIdempotency},
	schema.Agreements:      {refuse: MsgAgreements},
	schema.PayRates:        {refuse: MsgPayRates},
	schema.TaskAdjustments: {refuse: MsgAdjustments},
	// ending a session is a revocation (recorded); minting one is not a raw write
	schema.AuthSessions:        {refuse: MsgAuthSessions, allowDel: true},
	schema.ReplicationSettings: {refuse: MsgReplication},
	schema.Photos:              {refuse: MsgPhotos, editable: []string{schema.PhotoNotes}},
	schema.AuditLog:            {refuse: MsgAuditLog},
	schema.HeadOfficeTokens:    {refuse: MsgHOTokens},

	schema.Users:         {plain: true}, // hooks: defaults, role values, the last master, holders, sessions
	schema.Settings:      {plain: true}, // hooks: settings.go (each key's own check)
	schema.TermsVersions: {plain: true}, // hooks: terms.go (sanitised, signed immutable, one active)
	schema.PackModels:    {plain: true}, // the collection's own field limits; its packs re-derived in the same transaction (health.go)
}

// Collections lists the collections the raw-data door knows (tests: every collection the
// migrations make must be one of them).
func Collections() []string { return doors.names() }

// names lists the table's collections, sorted.
func (t doorTable) names() []string {
	return slices.Sorted(maps.Keys(t))
}

// Refused answers the refusal a raw write of action ("create", "update", "delete") on
// collection would get for the given changed fields ("" = allowed). Tests use it as the table.
func Refused(collection, action string, changed []string) string {
	d, ok := doors[collection]
	if !ok {
		return ""
	}
	return d.refusal(action, changed)
}

func (d door) refusal(action string, changed []string) string {
	if d.plain {
		return ""
	}
	switch action {
	case schema.AuditActionCreate:
		return cmpOr(d.create, d.refuse)
	case schema.AuditActionDelete:
		if d.allowDel {
			return ""
		}
		return cmpOr(d.delete, d.refuse)
	}
	if len(d.editable) == 0 {
		return d.refuse // even a save that changes nothing would touch the row's updated time
	}
	for _, f := range changed {
		if !slices.Contains(d.editable, f) {
			return d.refuse
		}
	}
	return ""
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func refuse(msg string) error {
	return apierr.NewCode(http.StatusForbidden, "", msg, apierr.CodeRawWriteRefused)
}

func bindRawData(app core.App) { doors.bind(app) }

// bind guards app's record API and collection routes with the table t.
func (t doorTable) bind(app core.App) {
	// the ledger's tables and the app's evidence are append-only for every writer but the app:
	// a raw create through the record API or /_/ is refused with the app's way to do it
	app.OnRecordCreateRequest().Bind(named(RawCreateId, rawGuardPriority, forAction(t.guardRaw, schema.AuditActionCreate)))
	// …a raw update that changes a field the app owns (any field but a collection's editable
	// ones) is refused
	app.OnRecordUpdateRequest().Bind(named(RawUpdateId, rawGuardPriority, forAction(t.guardRaw, schema.AuditActionUpdate)))
	// …and a raw delete is refused
	app.OnRecordDeleteRequest().Bind(named(RawDeleteId, rawGuardPriority, forAction(t.guardRaw, schema.AuditActionDelete)))
	// SwapBay's collections (their fields, indexes and API rules) change only through its
	// migrations: the dashboard's collection editor, delete and import are refused for them
	app.OnCollectionUpdateRequest().Bind(named(RawCollectionId, rawGuardPriority, t.guardCollection))
	app.OnCollectionDeleteRequest().Bind(named(RawCollectionId, rawGuardPriority, t.guardCollection))
	app.OnCollectionsImportRequest().Bind(named(RawImportId, rawGuardPriority, t.guardImport))
	// …and their truncate (a delete of every row, which runs no record request hook)
	app.OnServe().Bind(named(RawTruncateId, 0, func(se *core.ServeEvent) error {
		se.Router.Bind(named(RawTruncateId, order.RawDoors, t.guardTruncate))
		return se.Next()
	}))
}

func (t doorTable) guardRaw(e *core.RecordRequestEvent, action string) error {
	d, ok := t[e.Collection.Name]
	if !ok {
		return e.Next()
	}
	var changed []string
	if action == schema.AuditActionUpdate {
		changed = changedFields(e.Record)
	}
	if msg := d.refusal(action, changed); msg != "" {
		return refuse(msg)
	}
	return e.Next()
}

// changedFields lists the fields of rec whose loaded value differs from its stored one (the
// dashboard sends every field on save; only a real change counts). Autodate fields are left
// out (the save sets them); an auth record's new password shows as "password".
func changedFields(rec *core.Record) []string {
	orig := rec.Original()
	var out []string
	for _, f := range rec.Collection().Fields {
		name := f.GetName()
		if f.Type() == core.FieldTypeAutodate {
			continue
		}
		if !sameValue(rec.GetRaw(name), orig.GetRaw(name)) {
			out = append(out, name)
		}
	}
	return out
}

// sameValue compares two stored values: JSON by its meaning (the dashboard re-serialises it),
// anything else by value.
func sameValue(a, b any) bool {
	if reflect.DeepEqual(a, b) {
		return true
	}
	ja, okA := a.(types.JSONRaw)
	jb, okB := b.(types.JSONRaw)
	if okA && okB {
		var va, vb any
		if json.Unmarshal(ja, &va) == nil && json.Unmarshal(jb, &vb) == nil {
			return reflect.DeepEqual(va, vb)
		}
		return bytes.Equal(ja, jb)
	}
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// guarded reports whether collection c is one of the table's (its migrations' schema).
func (t doorTable) guarded(c *core.Collection) bool {
	if c == nil {
		return false
	}
	_, ok := t[c.Name]
	return ok
}

func (t doorTable) guardCollection(e *core.CollectionRequestEvent) error {
	if t.guarded(e.Collection) {
		return refuse(MsgSchema)
	}
	return e.Next()
}

func (t doorTable) guardImport(e *core.CollectionsImportRequestEvent) error {
	for _, raw := range e.CollectionsData {
		name, _ := raw["name"].(string)
		id, _ := raw["id"].(string)
		for _, key := range []string{name, id} {
			if c, err := e.App.FindCachedCollectionByNameOrId(key); key != "" && err == nil && t.guarded(c) {
				return refuse(MsgSchema)
			}
		}
	}
	// an import may also delete the collections it does not name (deleteMissing)
	if e.DeleteMissing {
		return refuse(MsgSchema)
	}
	return e.Next()
}

// truncateRoute is PocketBase's DELETE /api/collections/{collection}/truncate.
var truncateRoute = regexp.MustCompile(`^/api/collections/([^/]+)/truncate/?$`)

func (t doorTable) guardTruncate(e *core.RequestEvent) error {
	if e.Request.Method == http.MethodDelete {
		if m := truncateRoute.FindStringSubmatch(e.Request.URL.Path); m != nil {
			if c, err := e.App.FindCachedCollectionByNameOrId(m[1]); err == nil && t.guarded(c) {
				return refuse(MsgSchema)
			}
		}
	}
	return e.Next()
}
