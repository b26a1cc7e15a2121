package main

// measuredDecisions is the BENCHMARKS.md section of figures behind choices the code explains
// in its comments: the comments keep the reason, the report keeps the numbers.
const measuredDecisions = `
## Measured decisions

The figures behind choices the code explains in its comments (the comments keep the reason;
the numbers live here). Each was measured on the 2-core VM with ` + "`" + `make bench` + "`" + ` or
` + "`" + `go run ./internal/bench -only writes` + "`" + `; they are not re-measured by each run.

- Group commit size (` + "`" + `lib/idempotency` + "`" + ` MaxGroup), -only writes, 64 clients, WAL checkpoints off
  the write path: 16 gave 45-46% of native create, 24 48%, 32 50% in three runs; 48 and 64
  50% with fewer requests/s.
- A grouped request told to lead waited to be scheduled: a third of the time between two
  commits on a busy machine (` + "`" + `lib/idempotency` + "`" + ` worker).
- Time-ordered ids (` + "`" + `lib/ids` + "`" + `), 100,000-movement set: ledger writes 893-950 → 1,143-1,200 a
  second, a group's commit 4.4 → 2.1 ms.
- dbx's per-call parameter rewrite: 12% of the write lock's time in a CPU profile of the
  ledger write load (` + "`" + `lib/sqlitedb` + "`" + ` Exec and Query).
- The writer's own WAL checkpoint: 8% of its time in one second of a runtime trace
  (` + "`" + `lib/sqlitedb` + "`" + ` AutoCheckpointPages).
- Read connections: 4 served the ledger writes and PocketBase's routes faster than 16 or 32 on
  2 cores (` + "`" + `lib/sqlitedb` + "`" + ` MaxOpenConns).
- Movement INSERT without SaveNoValidate's hooks: writes 38% → 43% of native create
  (` + "`" + `modules/inventory/store.go` + "`" + `); the record's generic JSON export was a sixteenth of the
  write lock's time (` + "`" + `Movement.MarshalJSON` + "`" + `); an UPDATE with an IN list and RETURNING spent a
  fifth of that statement's time in temporary tables (one UPDATE per account instead).
- Feeds: SQLite's UNION ALL merge, join and sort took twice as long as the rows' own reads on
  a 1M-movement ledger (` + "`" + `modules/activity` + "`" + ` feed runs branches and names separately).
- ` + "`" + `txutil.Remember` + "`" + ` (a grouped transaction's memo of the ledger's sums), removed 2026-11-25:
  -only writes, three interleaved pairs on a shared, noisy VM, writes req/s with / without:
  368 / 394, 157 / 188, 239 / 207 (mean 255 / 263); writes/native create 54 / 46%, 103 / 46%,
  68 / 34%, with native create itself between 153 and 848 req/s. No clear gain of 5% or more.
`
