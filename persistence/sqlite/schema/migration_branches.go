package schema

// branchesMigration is migration 5: what branches and file-history snapshots need.
//
// The head of a session is its newest record on the main chain unless a rewind moved it:
// rewinds are appended to their own table (the head never overwrites anything), and the
// newest one holds while no main-chain record was written after it. A session is marked
// branched as soon as one of its records is not simply the next of its chain (a rewind, or
// a record whose parent is not the main-chain record before it, as an imported transcript
// with branches or parallel tool calls has), so that reading a session that never branched
// skips working out its branch. The flag was kept by a trigger, so every path that writes
// messages (the streaming writer, restores, imports, forks) kept it right; migration 14
// moved that to the writer, once per batch (persistence/sqlite/insert_effects.go).
//
// A fork names the session and the record it was forked from. File snapshots hold, for a
// message, the state of each tracked file (present or deleted), its content hash, and its
// content as a blob, shared by hash with every other snapshot and block.
var branchesMigration = []string{
	`ALTER TABLE sessions ADD COLUMN forked_from TEXT NOT NULL DEFAULT ''`,
	`ALTER TABLE sessions ADD COLUMN forked_from_uuid TEXT NOT NULL DEFAULT ''`,
	`ALTER TABLE sessions ADD COLUMN branched INTEGER NOT NULL DEFAULT 0`,
	`CREATE TABLE rewinds (
		rid        INTEGER PRIMARY KEY,
		sid        INTEGER NOT NULL,
		at_seq     INTEGER NOT NULL,
		uuid       TEXT NOT NULL,
		created_at INTEGER NOT NULL
	)`,
	`CREATE INDEX rewinds_by_session ON rewinds(sid, rid)`,
	`CREATE TRIGGER messages_branch AFTER INSERT ON messages
		WHEN new.is_sidechain = 0 AND new.parent_uuid != '' AND (SELECT branched FROM sessions WHERE sid = new.sid) = 0 BEGIN
		UPDATE sessions SET branched = 1 WHERE sid = new.sid AND new.parent_uuid IS NOT (` + PreviousMainUUID("new") + `);
	END`,
	`UPDATE sessions SET branched = 1 WHERE EXISTS (SELECT 1 FROM messages m
		WHERE m.sid = sessions.sid AND m.is_sidechain = 0 AND m.parent_uuid != '' AND m.parent_uuid IS NOT (` + PreviousMainUUID("m") + `))`,
	`CREATE TABLE file_snapshots (
		fsid         INTEGER PRIMARY KEY,
		sid          INTEGER NOT NULL,
		id           TEXT NOT NULL,
		message_uuid TEXT NOT NULL,
		root         TEXT NOT NULL DEFAULT '',
		is_update    INTEGER NOT NULL DEFAULT 0,
		created_at   INTEGER NOT NULL,
		extra        BLOB NOT NULL DEFAULT '{}',
		UNIQUE (sid, id)
	)`,
	`CREATE TABLE snapshot_files (
		fsid    INTEGER NOT NULL,
		path    TEXT NOT NULL,
		state   TEXT NOT NULL,
		hash    TEXT NOT NULL DEFAULT '',
		size    INTEGER,
		mode    INTEGER NOT NULL DEFAULT 0,
		blob_id INTEGER,
		extra   BLOB NOT NULL DEFAULT '{}',
		PRIMARY KEY (fsid, path)
	) WITHOUT ROWID`,
	`CREATE INDEX snapshot_files_by_blob ON snapshot_files(blob_id) WHERE blob_id IS NOT NULL`,
}

// PreviousMainUUID is the SQL expression for the uuid of the main-chain record written
// before the message row named row, NULL for none.
func PreviousMainUUID(row string) string {
	return `SELECT p.uuid FROM messages p WHERE p.sid = ` + row + `.sid AND p.is_sidechain = 0 AND p.seq < ` + row + `.seq
		ORDER BY p.seq DESC LIMIT 1`
}
