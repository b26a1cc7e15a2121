package sqlitedb

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"github.com/pocketbase/dbx"
)

// Exec and Query run a statement of dbx's form ({:name} parameters) on a transaction without
// dbx's per-call rewrite.
//
// Why: dbx turns {:name} into positional parameters (and [[col]] / {{table}} into quoted
// names) with two regular expressions every time a query is made. In a CPU profile of the
// ledger write load (make bench -only writes, -cpuprofile) that rewrite was a large share of
// the time the write lock is held (BENCHMARKS.md), more than the statements' own SQLite work
// for some of them. Exec and Query
// rewrite the parameters with a plain scan and run the statement on the transaction's own
// *sql.Tx: the same connection, so the same statement cache, and the same transaction.
//
// Outside a transaction (db is not a *dbx.Tx) they go through dbx as before: PocketBase's
// builder then picks the read or the write connection. Names in [[ ]] or {{ }} are refused:
// write them plainly.

// ErrQuotedNames refuses a statement with dbx's [[column]] or {{table}} quoting.
var ErrQuotedNames = errors.New("sqlitedb: [[ ]] and {{ }} names are dbx's: write the names plainly")

// Exec runs query with params on db (txApp.DB()).
func Exec(db dbx.Builder, query string, params dbx.Params) error {
	_, err := ExecAffected(db, query, params)
	return err
}

// ExecAffected is Exec that returns how many rows the statement changed.
func ExecAffected(db dbx.Builder, query string, params dbx.Params) (int64, error) {
	var res sql.Result
	if ex, ok := executor(db); ok {
		raw, args, err := positional(query, params)
		if err != nil {
			return 0, err
		}
		if res, err = ex.ExecContext(context.Background(), raw, args...); err != nil {
			return 0, err
		}
	} else {
		var err error
		if res, err = db.NewQuery(query).Bind(params).Execute(); err != nil {
			return 0, err
		}
	}
	return res.RowsAffected()
}

// Query runs query with params on db (txApp.DB()) and calls scan for each row; scan reads the
// row's columns in order into its arguments.
func Query(db dbx.Builder, query string, params dbx.Params, each func(scan func(dest ...any) error) error) error {
	var rows *sql.Rows
	if ex, ok := executor(db); ok {
		raw, args, err := positional(query, params)
		if err != nil {
			return err
		}
		if rows, err = ex.QueryContext(context.Background(), raw, args...); err != nil {
			return err
		}
	} else {
		r, err := db.NewQuery(query).Bind(params).Rows()
		if err != nil {
			return err
		}
		rows = r.Rows
	}
	defer rows.Close()
	for rows.Next() {
		if err := each(rows.Scan); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return rows.Close()
}

// executor is the *sql.Tx of a transaction's builder.
func executor(db dbx.Builder) (dbx.Executor, bool) {
	tx, ok := db.(*dbx.Tx)
	if !ok {
		return nil, false
	}
	b, ok := tx.Builder.(interface{ Executor() dbx.Executor })
	if !ok {
		return nil, false
	}
	return b.Executor(), true
}

// positional rewrites each {:name} of query (dbx's syntax: a name of letters, digits and
// underscores) as ?, with its value from params in the same order, as dbx does.
func positional(query string, params dbx.Params) (string, []any, error) {
	if strings.Contains(query, "[[") || strings.Contains(query, "{{") {
		return "", nil, ErrQuotedNames
	}
	var b strings.Builder
	var args []any
	rest := query
	for {
		i := strings.Index(rest, "{:")
		if i < 0 {
			break
		}
		j := i + 2
		for j < len(rest) && isWordByte(rest[j]) {
			j++
		}
		if j == i+2 || j == len(rest) || rest[j] != '}' {
			b.WriteString(rest[:i+2]) // not a parameter: kept as written, as dbx keeps it
			rest = rest[i+2:]
			continue
		}
		name := rest[i+2 : j]
		v, ok := params[name]
		if !ok {
			return "", nil, errors.New("Named parameter not found: " + name) // dbx's message
		}
		if b.Len() == 0 {
			b.Grow(len(query))
		}
		b.WriteString(rest[:i])
		b.WriteByte('?')
		args = append(args, v)
		rest = rest[j+1:]
	}
	if args == nil {
		return query, nil, nil
	}
	b.WriteString(rest)
	return b.String(), args, nil
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// In binds values as params prefix0, prefix1, … and returns them as an IN list,
// "{:prefix0}, {:prefix1}" (empty for no values: the caller answers without a query). The same
// values in the same order make the same statement text, for the statement cache.
func In(params dbx.Params, prefix string, values []string) string {
	holders := make([]string, len(values))
	for i, v := range values {
		k := prefix + strconv.Itoa(i)
		params[k], holders[i] = v, "{:"+k+"}"
	}
	return strings.Join(holders, ", ")
}
