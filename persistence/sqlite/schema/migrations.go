package schema

import "github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"

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
	{15, "the distinct terms of the search indexes, which a prefix typed in a search is expanded into", searchTermsMigration, nil},
}

// Statements returns the statements of migration version, nil for a version this build does
// not know: what a test of an upgrade plants to have a store of an older schema.
func Statements(version int64) []string {
	for _, m := range migrations {
		if m.version == version {
			return m.statements
		}
	}
	return nil
}
