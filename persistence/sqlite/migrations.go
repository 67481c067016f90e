package sqlite

import (
	"database/sql/driver"
	"fmt"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// migration is one numbered schema change. Applied migrations are recorded in the
// schema_migrations table of the database itself; a database that records a version this
// build does not know was written by a newer sessionkeep and is refused.
type migration struct {
	version     int64
	description string
	statements  []string
	then        func(*sqlconn.Conn) error // moves data the statements cannot, after them; nil for none
}

// migrations are applied in order, each in the transaction that records it. Never edit
// one that has shipped: add the next.
var migrations = []migration{
	{1, "sessions, messages, blocks, blobs and tool uses", []string{
		`CREATE TABLE sessions (
			sid            INTEGER PRIMARY KEY,
			id             TEXT NOT NULL UNIQUE,
			project_path   TEXT NOT NULL DEFAULT '',
			title          TEXT NOT NULL DEFAULT '',
			provider       TEXT NOT NULL DEFAULT '',
			model          TEXT NOT NULL DEFAULT '',
			context_window INTEGER NOT NULL DEFAULT 0,
			created_at     INTEGER NOT NULL,
			updated_at     INTEGER NOT NULL,
			message_count  INTEGER NOT NULL DEFAULT 0,
			status         TEXT NOT NULL DEFAULT 'active',
			owner          TEXT NOT NULL DEFAULT '',
			input_tokens          INTEGER NOT NULL DEFAULT 0,
			output_tokens         INTEGER NOT NULL DEFAULT 0,
			cache_read_tokens     INTEGER NOT NULL DEFAULT 0,
			cache_creation_tokens INTEGER NOT NULL DEFAULT 0,
			context_tokens        INTEGER NOT NULL DEFAULT 0
		)`,
		`CREATE INDEX sessions_by_update ON sessions(updated_at DESC)`,
		`CREATE INDEX sessions_by_project ON sessions(project_path, updated_at DESC)`,
		`CREATE TABLE messages (
			mid         INTEGER PRIMARY KEY,
			sid         INTEGER NOT NULL,
			seq         INTEGER NOT NULL,
			uuid        TEXT NOT NULL,
			parent_uuid TEXT NOT NULL DEFAULT '',
			type        TEXT NOT NULL,
			role        TEXT NOT NULL,
			turn        INTEGER NOT NULL,
			status      TEXT NOT NULL,
			created_at  INTEGER NOT NULL,
			provider    TEXT NOT NULL DEFAULT '',
			request_id  TEXT NOT NULL DEFAULT '',
			meta        BLOB NOT NULL DEFAULT '{}',
			extra       BLOB NOT NULL DEFAULT '{}',
			input_tokens          INTEGER NOT NULL DEFAULT 0,
			output_tokens         INTEGER NOT NULL DEFAULT 0,
			cache_read_tokens     INTEGER NOT NULL DEFAULT 0,
			cache_creation_tokens INTEGER NOT NULL DEFAULT 0,
			UNIQUE (sid, seq)
		)`,
		`CREATE INDEX messages_by_uuid ON messages(uuid)`,
		`CREATE INDEX messages_streaming ON messages(sid) WHERE status = 'streaming'`,
		`CREATE TABLE blocks (
			bid     INTEGER PRIMARY KEY,
			sid     INTEGER NOT NULL,
			seq     INTEGER NOT NULL,
			idx     INTEGER NOT NULL,
			partial INTEGER NOT NULL DEFAULT 0,
			body    BLOB,
			blob_id INTEGER,
			UNIQUE (sid, seq, idx)
		)`,
		`CREATE TABLE blobs (
			id   INTEGER PRIMARY KEY,
			hash BLOB NOT NULL UNIQUE,
			size INTEGER NOT NULL,
			data BLOB NOT NULL
		)`,
		`CREATE TABLE tool_uses (
			sid         INTEGER NOT NULL,
			tool_use_id TEXT NOT NULL,
			seq         INTEGER NOT NULL,
			PRIMARY KEY (sid, tool_use_id)
		) WITHOUT ROWID`,
	}, nil},
	{2, "token counts with cumulative totals, summaries, compaction boundaries, context state", []string{
		// NULL until counted; cum_* are the sums through the message, so any range is
		// counted by subtraction.
		`ALTER TABLE messages ADD COLUMN tokens INTEGER`,
		`ALTER TABLE messages ADD COLUMN pruned_tokens INTEGER`,
		`ALTER TABLE messages ADD COLUMN cum_tokens INTEGER`,
		`ALTER TABLE messages ADD COLUMN cum_pruned INTEGER`,
		`ALTER TABLE messages ADD COLUMN token_source TEXT NOT NULL DEFAULT ''`,
		`CREATE INDEX messages_by_cum ON messages(sid, cum_tokens)`,
		`CREATE INDEX messages_by_turn ON messages(sid, turn, seq)`,
		`CREATE INDEX messages_uncounted ON messages(sid, seq) WHERE cum_tokens IS NULL`,
		`CREATE TABLE summaries (
			id            INTEGER PRIMARY KEY,
			sid           INTEGER NOT NULL,
			from_seq      INTEGER NOT NULL,
			to_seq        INTEGER NOT NULL,
			message_count INTEGER NOT NULL,
			tokens_before INTEGER NOT NULL,
			tokens_after  INTEGER NOT NULL,
			model         TEXT NOT NULL DEFAULT '',
			text          TEXT NOT NULL,
			created_at    INTEGER NOT NULL,
			UNIQUE (sid, from_seq, to_seq)
		)`,
		`CREATE TABLE compactions (
			id            INTEGER PRIMARY KEY,
			sid           INTEGER NOT NULL,
			boundary_seq  INTEGER NOT NULL,
			reason        TEXT NOT NULL,
			tokens_before INTEGER NOT NULL,
			tokens_after  INTEGER NOT NULL,
			created_at    INTEGER NOT NULL
		)`,
		`CREATE INDEX compactions_by_session ON compactions(sid, id)`,
		`CREATE TABLE context_states (
			sid     INTEGER PRIMARY KEY,
			through INTEGER NOT NULL,
			state   BLOB NOT NULL
		)`,
	}, nil},
	{3, "session management: listing metadata, hosted-agent state, history, full-text search", sessionManagementMigration, nil},
	{4, "per-message sidechain flag, and records that continue the previous message", []string{
		`ALTER TABLE messages ADD COLUMN is_sidechain INTEGER NOT NULL DEFAULT 0`,
		`ALTER TABLE messages ADD COLUMN continues INTEGER NOT NULL DEFAULT 0`,
	}, nil},
	{5, "branches: rewinds of the head, fork lineage, file-history snapshots", branchesMigration, nil},
	{6, "message bodies: each complete message's envelope JSON, encoded once, and its layout", []string{
		`ALTER TABLE messages ADD COLUMN body BLOB`,
		`ALTER TABLE messages ADD COLUMN layout BLOB`,
	}, nil},
	{7, "search indexing through a queue, off the path that makes messages durable", searchQueueMigration, nil},
	// Listings (newest first, archived left out) read these in order, with no sort: W4 of the
	// speed benchmark, 1,000 sessions, went from 2.5 to 1.5 ms of SQLite.
	{8, "indexes in the order listings read", []string{
		`CREATE INDEX sessions_listed ON sessions(updated_at DESC, sid DESC) WHERE archived_at = 0`,
		`CREATE INDEX sessions_listed_by_project ON sessions(project_path, updated_at DESC, sid DESC) WHERE archived_at = 0`,
	}, nil},
	{9, "the count of secrets redacted in each session", []string{
		`ALTER TABLE sessions ADD COLUMN redactions INTEGER NOT NULL DEFAULT 0`,
	}, nil},
	{10, "a completed message stored once, as its body; block rows only journal what streams; search over bodies",
		bodiesOnlyMigration, moveToBodies},
	{11, "large message bodies stored packed (s2); search reads bodies unpacked", packedBodiesMigration, nil},
	{12, "the listing from one covering index, its times set once per write batch instead of by a trigger per message",
		listingMigration, nil},
	{13, "the text a message body is searched by read in Go, not by SQLite's JSON functions", searchTextMigration, nil},
	{14, "what inserting a message implies (the search queue, the branched flag) done by the writer once per batch, not by triggers",
		insertEffectsMigration, nil},
}

// migrate brings the database's schema up to the newest migration: an empty database (a
// new file) in one step from freshSchema, any other by the migrations it lacks. It then
// settles the messages an older sessionkeep ended after the migration (settleLateBodies)
// and gives back the space the migrations it applied left free (reclaimAfterMigration).
//
//go:generate go test -run ^TestFreshSchemaIsTheMigrations$ -update-fresh-schema .
func migrate(c *sqlconn.Conn) error {
	since := time.Now().UnixMilli()
	if err := migrateWith(c, freshSchema); err != nil {
		return err
	}
	settleLateBodies(c)
	reclaimAfterMigration(c, since)
	return nil
}

// migrateWith is migrate with the fresh schema given, so that a test can build a store by
// the migrations alone (with an empty freshDump) to compare.
func migrateWith(c *sqlconn.Conn, fresh freshDump) error {
	if _, err := c.Exec("BEGIN IMMEDIATE"); err != nil {
		return sqlconn.Wrap("starting the migration", err)
	}
	if err := migrateInTransaction(c, fresh); err != nil {
		c.Exec("ROLLBACK")
		return err
	}
	if _, err := c.Exec("COMMIT"); err != nil {
		c.Exec("ROLLBACK") // so that a retry can begin again
		return sqlconn.Wrap("committing the migration", err)
	}
	return nil
}

// migrateInTransaction decides, under the write lock (two processes may create the file at
// once), whether the database is new.
func migrateInTransaction(c *sqlconn.Conn, fresh freshDump) error {
	empty, err := isEmptyDatabase(c)
	if err != nil {
		return err
	}
	if empty && fresh.fits(migrations) {
		return createFresh(c, fresh, migrations)
	}
	if _, err := c.Exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
		version     INTEGER PRIMARY KEY,
		description TEXT NOT NULL,
		applied_at  INTEGER NOT NULL)`); err != nil {
		return sqlconn.Wrap("creating the migrations table", err)
	}
	return applyMigrations(c)
}

func applyMigrations(c *sqlconn.Conn) error {
	applied, err := appliedVersions(c)
	if err != nil {
		return err
	}
	known := make(map[int64]bool, len(migrations))
	for _, m := range migrations {
		known[m.version] = true
	}
	for version := range applied {
		if !known[version] {
			return fmt.Errorf("%w: database schema has migration %d, which this sessionkeep does not know: upgrade sessionkeep", session.ErrStorage, version)
		}
	}
	for _, m := range migrations {
		if applied[m.version] {
			continue
		}
		for _, stmt := range m.statements {
			if _, err := c.Exec(stmt); err != nil {
				return sqlconn.Wrap(fmt.Sprintf("migration %d (%s)", m.version, m.description), err)
			}
		}
		if m.then != nil {
			if err := m.then(c); err != nil {
				return sqlconn.Wrap(fmt.Sprintf("migration %d (%s)", m.version, m.description), err)
			}
		}
		if err := recordMigration(c, m, time.Now().UnixMilli()); err != nil {
			return err
		}
	}
	return nil
}

// recordMigration records m in schema_migrations as applied at appliedAt (Unix ms).
func recordMigration(c *sqlconn.Conn, m migration, appliedAt int64) error {
	_, err := c.Exec(`INSERT INTO schema_migrations(version, description, applied_at) VALUES (?, ?, ?)`,
		m.version, m.description, appliedAt)
	return sqlconn.Wrap("recording a migration", err)
}

// appliedVersions returns the migrations the database records. Each migration is applied
// by its own number, not by "everything above the newest", so that migrations developed
// side by side apply whatever order they were merged in.
func appliedVersions(c *sqlconn.Conn) (map[int64]bool, error) {
	applied := map[int64]bool{}
	err := c.Query(`SELECT version FROM schema_migrations`, nil, func(row []driver.Value) error {
		applied[row[0].(int64)] = true
		return nil
	})
	return applied, sqlconn.Wrap("reading the applied migrations", err)
}
