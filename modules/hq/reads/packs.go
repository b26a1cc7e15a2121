package reads

import (
	"context"
	"encoding/json"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/schema"
)

// Pack is one pack a serial search found in a copy.
type Pack struct {
	Serial       string `json:"serial"`
	State        string `json:"state"`
	Place        string `json:"place"`
	LastSeenAt   string `json:"lastSeenAt"` // RFC 3339 UTC, "" never seen
	Model        string `json:"model"`
	Lot          string `json:"lot"`
	Manufacturer string `json:"manufacturer"`
}

// SearchPacks finds the packs whose serial is prefix or starts with it (a range of the unique
// serial index, idx_packs_serial), at most limit, by serial. prefix is a serial as the city
// stores them (journal.Serial: trimmed, capitals).
func (d *DB) SearchPacks(ctx context.Context, prefix string, limit int) ([]Pack, error) {
	q := "SELECT p.[[serial]], p.[[state]], COALESCE(p.[[lastSeenAt]], ''), COALESCE(p.[[model]], ''), COALESCE(p.[[lot]], ''), COALESCE(p.[[manufacturer]], '')," +
		" COALESCE(a.[[kind]], ''), COALESCE(a.[[assignmentType]], ''), COALESCE(TRIM(u.[[firstName]] || ' ' || u.[[lastName]]), '')" +
		" FROM {{" + schema.Packs + "}} p INDEXED BY idx_packs_serial" +
		" LEFT JOIN {{" + schema.Accounts + "}} a ON a.[[id]] = p.[[location]] AND p.[[location]] != ''" +
		" LEFT JOIN {{" + schema.Users + "}} u ON u.[[id]] = a.[[user]] AND a.[[user]] != ''" +
		" WHERE p.[[serial]] >= {:lo} AND p.[[serial]] < {:hi} ORDER BY p.[[serial]] LIMIT {:limit}"
	out := []Pack{}
	err := EachRow(d.db.NewQuery(q).Bind(dbx.Params{"lo": prefix, "hi": prefix + string(utf8.MaxRune), "limit": limit}).WithContext(ctx), func(rows *dbx.Rows) error {
		var p Pack
		var seen, kind, typ, name string
		if err := rows.Scan(&p.Serial, &p.State, &seen, &p.Model, &p.Lot, &p.Manufacturer, &kind, &typ, &name); err != nil {
			return err
		}
		p.LastSeenAt = APITime(seen)
		p.Place = schema.PlaceLabel(kind, typ, name)
		out = append(out, p)
		return nil
	})
	return out, err
}

// APITime turns a stored datetime into RFC 3339 UTC ("" stays "").
func APITime(stored string) string {
	if stored == "" {
		return ""
	}
	dt, err := types.ParseDateTime(stored)
	if err != nil || dt.IsZero() {
		return ""
	}
	return dt.Time().UTC().Format(time.RFC3339)
}

// PackTransfers is the city's table of packs sent to and received from other cities (helper
// hq-transfers' schema; a copy without it has no transfers).
const PackTransfers = "pack_transfers"

// Transfer is one row of a copy's pack_transfers.
type Transfer struct {
	Direction    string   // out | in
	Ref          string   // the sending city's transfer id
	OtherCity    string   // name
	OtherAddress string   // https URL or ""
	Serials      []string // the packs
	At           string   // RFC 3339 UTC
}

// MaxTransfers bounds the transfers read from one copy (newest first).
const MaxTransfers = 500

// Transfers reads the copy's transfers, newest first (none when the table does not exist).
func (d *DB) Transfers(ctx context.Context) ([]Transfer, error) {
	if ok, err := d.hasTable(ctx, PackTransfers); err != nil || !ok {
		return []Transfer{}, err
	}
	q := d.db.NewQuery("SELECT COALESCE([[direction]], ''), COALESCE([[ref]], ''), COALESCE([[otherCity]], ''), COALESCE([[otherAddress]], '')," +
		" COALESCE([[serials]], '[]'), COALESCE([[at]], '') FROM {{" + PackTransfers + "}} ORDER BY [[at]] DESC, rowid DESC LIMIT {:limit}").
		Bind(dbx.Params{"limit": MaxTransfers}).WithContext(ctx)
	out := []Transfer{}
	err := EachRow(q, func(rows *dbx.Rows) error {
		var t Transfer
		var serials, at string
		if err := rows.Scan(&t.Direction, &t.Ref, &t.OtherCity, &t.OtherAddress, &serials, &at); err != nil {
			return err
		}
		t.At = APITime(at)
		if json.Unmarshal([]byte(serials), &t.Serials) != nil || t.Serials == nil {
			t.Serials = []string{}
		}
		out = append(out, t)
		return nil
	})
	return out, err
}

// hasTable reports whether the copy has table name (an old city's copy may lack a newer
// table: it then has none of its rows).
func (d *DB) hasTable(ctx context.Context, name string) (bool, error) {
	var n int
	err := d.db.NewQuery("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = {:t}").
		Bind(dbx.Params{"t": name}).WithContext(ctx).Row(&n)
	return n > 0, err
}

// statesChunk is how many serials one IN query binds: far under SQLite's variable limit
// (999 before 3.32, 32766 since).
const statesChunk = 500

// PackStates reads the state of each of serials the copy's packs table holds (serial →
// state); a serial it does not hold is absent, and a copy without the table holds none. One
// IN query per statesChunk serials over the unique serial index.
func (d *DB) PackStates(ctx context.Context, serials []string) (map[string]string, error) {
	out := map[string]string{}
	if len(serials) == 0 {
		return out, nil
	}
	if ok, err := d.hasTable(ctx, schema.Packs); err != nil || !ok {
		return out, err
	}
	for chunk := range slices.Chunk(serials, statesChunk) {
		values := make([]any, len(chunk))
		for i, s := range chunk {
			values[i] = s
		}
		q := d.db.Select(schema.PackSerial, "COALESCE([["+schema.PackState+"]], '')").From(schema.Packs).
			Where(dbx.In(schema.PackSerial, values...)).WithContext(ctx).Build()
		err := EachRow(q, func(rows *dbx.Rows) error {
			var serial, state string
			if err := rows.Scan(&serial, &state); err != nil {
				return err
			}
			out[serial] = state
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
