// Package sqlitedb opens SwapBay's SQLite databases: PocketBase's own driver (modernc.org/sqlite)
// and pragmas (core.DefaultDBConnect), plus a cache of prepared statements on each connection.
//
// Why: PocketBase and dbx run every query as a one-shot statement, so SQLite parses and plans
// the same SQL text on every call. With the pure-Go SQLite that parse is the largest cost of a
// short query (a ledger write ran 7 statements, and preparing them took more time than running
// them), and on the single write connection every microsecond of it is spent holding the
// database's write lock. The cache keeps the prepared statement of each SQL text a connection
// has run (up to MaxStatements, least recently used dropped first) and runs it again with the
// new arguments: the same query plan, no parse.
//
// It is the driver's own statement reuse (a modernc statement of one SQL statement is reset, not
// finalized, after each run), bound to one connection as database/sql requires: a connection is
// used by one goroutine at a time. A statement whose rows are still open is never run again
// until they are closed; a second use of the same text meanwhile is prepared one-shot. SQLite
// recompiles a cached statement by itself after a schema change (sqlite3_prepare_v2).
package sqlitedb

import (
	"container/list"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"modernc.org/sqlite"
)

// Pragmas are PocketBase's (core.DefaultDBConnect in v0.40): busy timeout first, WAL, NORMAL
// sync, foreign keys, a 32 MB page cache, defensive mode; and the WAL is copied back into the
// database by the connection that writes only past AutoCheckpointPages (see Checkpoint).
//
// Transactions begin IMMEDIATE (_txlock): they take the write lock at BEGIN, waiting for it
// under the busy timeout. PocketBase runs every transaction on its one write connection, so
// this costs nothing; a deferred BEGIN instead reads a snapshot first, and when another
// connection commits a write before the transaction's first write (Litestream's bookkeeping
// while it replicates, a CLI command on the live data dir) SQLite refuses the upgrade at once
// with SQLITE_BUSY, whatever the busy timeout: measured, 2 of 300 keyed writes answered 500
// "database is locked" with replication on.
const Pragmas = "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=journal_size_limit(200000000)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(ON)&_pragma=temp_store(MEMORY)&_pragma=cache_size(-32000)&_pragma=wal_autocheckpoint(8000)&_defensive=1&_txlock=immediate"

// AutoCheckpointPages is the WAL size, in pages, past which the connection that commits a
// write copies the WAL back into the database file itself (SQLite's default is 1000 pages):
// a backstop for when Checkpoint, run every CheckpointInterval off the write path, falls
// behind. That copy ends with an fsync, and made by the writer it held every write behind it
// (seen in a runtime trace of the ledger write load; BENCHMARKS.md).
const AutoCheckpointPages = 8000

// CheckpointInterval is how often the server runs Checkpoint on its databases (modules/jobs).
const CheckpointInterval = 200 * time.Millisecond

// Checkpoint copies what it can of db's WAL back into the database file without waiting for
// a reader or the writer (PRAGMA wal_checkpoint(PASSIVE)), on one of db's read connections;
// the next write starts the WAL over once all of it was copied. It returns the WAL's size in
// pages and how many of them are in the database file now.
func Checkpoint(db dbx.Builder) (walPages, copied int, err error) {
	var busy int
	err = db.NewQuery("PRAGMA wal_checkpoint(PASSIVE)").Row(&busy, &walPages, &copied)
	return walPages, copied, err
}

// MaxOpenConns and MaxIdleConns size PocketBase's pool of read connections
// (DataMaxOpenConns, DataMaxIdleConns; PocketBase's defaults are 120 and 15): two per core,
// at least 4, all kept open. Reads are CPU work, and the pure-Go SQLite's memory allocator
// is one lock for every connection of the process, so connections beyond a couple per core
// only wait on each other (and on the write connection): with make bench on 2 cores, 4
// connections served the ledger writes and PocketBase's own routes faster than 16 or 32
// (BENCHMARKS.md). With fewer idle than open, a busy minute would close and reopen connections and
// their statement caches by the dozen.
var (
	MaxOpenConns = max(4, 2*runtime.NumCPU())
	MaxIdleConns = MaxOpenConns
)

// AppConfig is a PocketBase app configuration for dataDir on these connections: Connect and
// the pool's size (the server sets the same fields of pocketbase.Config).
func AppConfig(dataDir string) core.BaseAppConfig {
	return core.BaseAppConfig{DataDir: dataDir, DBConnect: Connect, DataMaxOpenConns: MaxOpenConns, DataMaxIdleConns: MaxIdleConns}
}

// OpenDir opens the data dir dataDir as a PocketBase app on these connections, without
// SwapBay's hooks (PocketBase creates the dir and its databases when missing): the one way a
// command or a tool opens a data dir outside the server. Close it with ResetBootstrapState.
func OpenDir(dataDir string) (*core.BaseApp, error) {
	app := core.NewBaseApp(AppConfig(dataDir))
	if err := app.Bootstrap(); err != nil {
		return nil, err
	}
	return app, nil
}

// MaxStatements bounds the statements kept per connection.
const MaxStatements = 256

// MaxCachedSQL is the longest SQL text kept: longer texts are scripts (migrations) or
// one-off queries with many inlined values, not worth keeping.
const MaxCachedSQL = 8 << 10

// Connect is a core.DBConnectFunc: dbPath opened with Pragmas, each connection caching its
// prepared statements.
func Connect(dbPath string) (*dbx.DB, error) {
	base, err := sqlite.NewConnector(dbPath + Pragmas)
	if err != nil {
		return nil, err
	}
	return dbx.NewFromDB(sql.OpenDB(connector{base}), "sqlite"), nil
}

// prepares counts the statements the cache prepared (tests check reuse with it).
var prepares atomic.Int64

type connector struct{ base driver.Connector }

func (c connector) Connect(ctx context.Context) (driver.Conn, error) {
	inner, err := c.base.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return newConn(inner)
}

func (c connector) Driver() driver.Driver { return c.base.Driver() }

// innerConn is what the modernc connection implements and the cache relies on.
type innerConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
}

// conn is a driver connection with its statement cache.
type conn struct {
	inner innerConn

	mu    sync.Mutex
	stmts map[string]*list.Element // of *cached, most recently used at the front
	lru   list.List
}

// cached is one kept statement; busy while rows read from it are open.
type cached struct {
	sql     string
	stmt    driver.Stmt
	busy    bool
	evicted bool // dropped from the cache while busy: closed when its rows close
}

func newConn(inner driver.Conn) (driver.Conn, error) {
	ic, ok := inner.(innerConn)
	if !ok {
		inner.Close()
		return nil, errors.New("sqlitedb: the sqlite driver's connection lacks the context methods")
	}
	return &conn{inner: ic, stmts: map[string]*list.Element{}}, nil
}

// take returns the cached statement of query, preparing and keeping it on first use, marked
// busy; nil when the text is not cached or its statement is in use (the caller then runs the
// query one-shot).
func (c *conn) take(ctx context.Context, query string) (*cached, error) {
	if len(query) > MaxCachedSQL {
		return nil, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.stmts[query]; ok {
		cs := el.Value.(*cached)
		if cs.busy {
			return nil, nil
		}
		c.lru.MoveToFront(el)
		cs.busy = true
		return cs, nil
	}
	stmt, err := c.inner.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	prepares.Add(1)
	cs := &cached{sql: query, stmt: stmt, busy: true}
	c.stmts[query] = c.lru.PushFront(cs)
	for c.lru.Len() > MaxStatements {
		c.drop(c.lru.Back())
	}
	return cs, nil
}

// drop removes el from the cache and closes its statement, or leaves that to release when
// its rows are still open. Call with c.mu held.
func (c *conn) drop(el *list.Element) {
	cs := el.Value.(*cached)
	c.lru.Remove(el)
	delete(c.stmts, cs.sql)
	if cs.busy {
		cs.evicted = true
		return
	}
	cs.stmt.Close()
}

// release marks cs free again (or closes it when it was dropped meanwhile).
func (c *conn) release(cs *cached) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cs.busy = false
	if cs.evicted {
		cs.stmt.Close()
	}
}

func (c *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	cs, err := c.take(ctx, query)
	if err != nil {
		return nil, err
	}
	if cs == nil {
		return c.inner.ExecContext(ctx, query, args)
	}
	defer c.release(cs)
	return cs.stmt.(driver.StmtExecContext).ExecContext(ctx, args)
}

func (c *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	cs, err := c.take(ctx, query)
	if err != nil {
		return nil, err
	}
	if cs == nil {
		return c.inner.QueryContext(ctx, query, args)
	}
	r, err := cs.stmt.(driver.StmtQueryContext).QueryContext(ctx, args)
	if err != nil {
		c.release(cs)
		return nil, err
	}
	return &rows{Rows: r, release: func() { c.release(cs) }}, nil
}

// Prepare and PrepareContext (database/sql's own prepared statements) are not cached: the
// caller owns and closes them.
func (c *conn) Prepare(query string) (driver.Stmt, error) { return c.inner.Prepare(query) }

func (c *conn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.inner.PrepareContext(ctx, query)
}

// Begin is driver.Conn's (database/sql calls BeginTx).
func (c *conn) Begin() (driver.Tx, error) {
	return c.inner.BeginTx(context.Background(), driver.TxOptions{})
}

func (c *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return c.inner.BeginTx(ctx, opts)
}

// Close finalizes the kept statements, then closes the connection.
func (c *conn) Close() error {
	c.mu.Lock()
	for c.lru.Len() > 0 {
		c.drop(c.lru.Back())
	}
	c.mu.Unlock()
	return c.inner.Close()
}

func (c *conn) Ping(ctx context.Context) error {
	if p, ok := c.inner.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

func (c *conn) ResetSession(ctx context.Context) error {
	if r, ok := c.inner.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *conn) IsValid() bool {
	if v, ok := c.inner.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

// rows hands the statement back to the cache when closed (once), and passes the column type
// questions database/sql may ask on to the driver's rows.
type rows struct {
	driver.Rows
	release func()
	closed  bool
}

func (r *rows) Close() error {
	err := r.Rows.Close()
	if !r.closed {
		r.closed = true
		r.release()
	}
	return err
}

func (r *rows) ColumnTypeDatabaseTypeName(i int) string {
	if t, ok := r.Rows.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return t.ColumnTypeDatabaseTypeName(i)
	}
	return ""
}

func (r *rows) ColumnTypeLength(i int) (int64, bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypeLength); ok {
		return t.ColumnTypeLength(i)
	}
	return 0, false
}

func (r *rows) ColumnTypeNullable(i int) (bool, bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypeNullable); ok {
		return t.ColumnTypeNullable(i)
	}
	return false, false
}

func (r *rows) ColumnTypePrecisionScale(i int) (int64, int64, bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypePrecisionScale); ok {
		return t.ColumnTypePrecisionScale(i)
	}
	return 0, 0, false
}

func (r *rows) ColumnTypeScanType(i int) reflect.Type {
	if t, ok := r.Rows.(driver.RowsColumnTypeScanType); ok {
		return t.ColumnTypeScanType(i)
	}
	return reflect.TypeFor[any]()
}
