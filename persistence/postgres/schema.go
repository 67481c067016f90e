package postgres

// schemaV1 is migration 1: every table of a store. It follows the SQLite schema (the same
// columns, times as milliseconds since the epoch, JSON kept as the bytes it was written
// as) with PostgreSQL's types: BIGINT keys from identity columns, BOOLEAN flags, BYTEA
// payloads. Differences, and why:
//   - A block's JSON stays in its row whatever its size: PostgreSQL compresses and moves large
//     values out of line itself (TOAST). Only file-snapshot contents go to the blobs table,
//     stored once by hash, since one file is snapshotted many times.
//   - No pre-encoded message bodies: a message is read from its rows, which
//     session.MessageLog's ScanEncoded allows. (Migration 4, schema_bodies.go, added them.)
//   - Search is a tsvector column generated from the block's searchable text (extracted by
//     the writer, see searchText, and kept for snippets) with a GIN index, not FTS5.
//     Migration 3 (schema_search_later.go) made it a column filled off the writer's commits,
//     migration 4 a column of each message, filled from its body.
//   - What SQLite's triggers keep per message (last message, tool count, open) the writer
//     keeps once per session per batch; a trigger kept only the branched flag, until
//     migration 6 (schema_branch_mark.go) gave that to the writer too.
var schemaV1 = []string{
	`CREATE TABLE sessions (
		sid              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
		id               TEXT NOT NULL UNIQUE,
		project_path     TEXT NOT NULL DEFAULT '',
		title            TEXT NOT NULL DEFAULT '',
		provider         TEXT NOT NULL DEFAULT '',
		model            TEXT NOT NULL DEFAULT '',
		context_window   BIGINT NOT NULL DEFAULT 0,
		created_at       BIGINT NOT NULL,
		updated_at       BIGINT NOT NULL,
		message_count    BIGINT NOT NULL DEFAULT 0,
		status           TEXT NOT NULL DEFAULT 'active',
		owner            TEXT NOT NULL DEFAULT '',
		input_tokens          BIGINT NOT NULL DEFAULT 0,
		output_tokens         BIGINT NOT NULL DEFAULT 0,
		cache_read_tokens     BIGINT NOT NULL DEFAULT 0,
		cache_creation_tokens BIGINT NOT NULL DEFAULT 0,
		context_tokens        BIGINT NOT NULL DEFAULT 0,
		tool_count       BIGINT NOT NULL DEFAULT 0,
		last_message_at  BIGINT NOT NULL DEFAULT 0,
		last_accessed_at BIGINT NOT NULL DEFAULT 0,
		archived_at      BIGINT NOT NULL DEFAULT 0,
		corruption       TEXT NOT NULL DEFAULT '',
		is_open          BOOLEAN NOT NULL DEFAULT false,
		session_key      TEXT UNIQUE,
		checkpoint       BIGINT,
		sdk_session_id   TEXT NOT NULL DEFAULT '',
		seen_seq         BIGINT NOT NULL DEFAULT 0,
		forked_from      TEXT NOT NULL DEFAULT '',
		forked_from_uuid TEXT NOT NULL DEFAULT '',
		branched         BOOLEAN NOT NULL DEFAULT false,
		redactions       BIGINT NOT NULL DEFAULT 0
	)`,
	`CREATE INDEX sessions_listed ON sessions(updated_at DESC, sid DESC) WHERE archived_at = 0`,
	`CREATE INDEX sessions_by_project ON sessions(project_path, updated_at DESC, sid DESC)`,
	`CREATE INDEX sessions_open ON sessions(sid) WHERE is_open`,
	`CREATE TABLE messages (
		sid         BIGINT NOT NULL,
		seq         BIGINT NOT NULL,
		uuid        TEXT NOT NULL,
		parent_uuid TEXT NOT NULL DEFAULT '',
		type        TEXT NOT NULL,
		role        TEXT NOT NULL,
		turn        BIGINT NOT NULL,
		status      TEXT NOT NULL,
		created_at  BIGINT NOT NULL,
		provider    TEXT NOT NULL DEFAULT '',
		request_id  TEXT NOT NULL DEFAULT '',
		meta        BYTEA NOT NULL DEFAULT '{}',
		extra       BYTEA NOT NULL DEFAULT '{}',
		input_tokens          BIGINT NOT NULL DEFAULT 0,
		output_tokens         BIGINT NOT NULL DEFAULT 0,
		cache_read_tokens     BIGINT NOT NULL DEFAULT 0,
		cache_creation_tokens BIGINT NOT NULL DEFAULT 0,
		tokens        BIGINT,
		pruned_tokens BIGINT,
		cum_tokens    BIGINT,
		cum_pruned    BIGINT,
		token_source  TEXT NOT NULL DEFAULT '',
		is_sidechain  BOOLEAN NOT NULL DEFAULT false,
		continues     BOOLEAN NOT NULL DEFAULT false,
		PRIMARY KEY (sid, seq)
	)`,
	`CREATE INDEX messages_by_uuid ON messages(uuid)`,
	`CREATE INDEX messages_streaming ON messages(sid) WHERE status = 'streaming'`,
	`CREATE INDEX messages_by_cum ON messages(sid, cum_tokens)`,
	`CREATE INDEX messages_by_turn ON messages(sid, turn, seq)`,
	`CREATE TABLE blocks (
		sid     BIGINT NOT NULL,
		seq     BIGINT NOT NULL,
		idx     BIGINT NOT NULL,
		partial BOOLEAN NOT NULL DEFAULT false,
		body    BYTEA NOT NULL,
		search_text TEXT, -- what search reads of a complete block (searchText), NULL for none
		search  tsvector GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED,
		PRIMARY KEY (sid, seq, idx)
	)`,
	`CREATE INDEX blocks_search ON blocks USING GIN (search)`,
	`CREATE TABLE blobs (
		id   BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
		hash BYTEA NOT NULL UNIQUE,
		size BIGINT NOT NULL,
		data BYTEA NOT NULL
	)`,
	`CREATE TABLE tool_uses (
		sid         BIGINT NOT NULL,
		tool_use_id TEXT NOT NULL,
		seq         BIGINT NOT NULL,
		PRIMARY KEY (sid, tool_use_id)
	)`,
	`CREATE TABLE summaries (
		id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
		sid           BIGINT NOT NULL,
		from_seq      BIGINT NOT NULL,
		to_seq        BIGINT NOT NULL,
		message_count BIGINT NOT NULL,
		tokens_before BIGINT NOT NULL,
		tokens_after  BIGINT NOT NULL,
		model         TEXT NOT NULL DEFAULT '',
		text          TEXT NOT NULL,
		created_at    BIGINT NOT NULL,
		UNIQUE (sid, from_seq, to_seq)
	)`,
	`CREATE TABLE compactions (
		id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
		sid           BIGINT NOT NULL,
		boundary_seq  BIGINT NOT NULL,
		reason        TEXT NOT NULL,
		tokens_before BIGINT NOT NULL,
		tokens_after  BIGINT NOT NULL,
		created_at    BIGINT NOT NULL
	)`,
	`CREATE INDEX compactions_by_session ON compactions(sid, id)`,
	`CREATE TABLE context_states (
		sid     BIGINT PRIMARY KEY,
		through BIGINT NOT NULL,
		state   BYTEA NOT NULL
	)`,
	`CREATE TABLE history (
		hid        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
		sid        BIGINT NOT NULL,
		role       TEXT NOT NULL,
		content    TEXT NOT NULL,
		created_at BIGINT NOT NULL
	)`,
	`CREATE INDEX history_by_session ON history(sid, hid)`,
	`CREATE TABLE rewinds (
		rid        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
		sid        BIGINT NOT NULL,
		at_seq     BIGINT NOT NULL,
		uuid       TEXT NOT NULL,
		created_at BIGINT NOT NULL
	)`,
	`CREATE INDEX rewinds_by_session ON rewinds(sid, rid)`,
	`CREATE TABLE file_snapshots (
		fsid         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
		sid          BIGINT NOT NULL,
		id           TEXT NOT NULL,
		message_uuid TEXT NOT NULL,
		root         TEXT NOT NULL DEFAULT '',
		is_update    BOOLEAN NOT NULL DEFAULT false,
		created_at   BIGINT NOT NULL,
		extra        BYTEA NOT NULL DEFAULT '{}',
		UNIQUE (sid, id)
	)`,
	`CREATE TABLE snapshot_files (
		fsid    BIGINT NOT NULL,
		path    TEXT NOT NULL,
		state   TEXT NOT NULL,
		hash    TEXT NOT NULL DEFAULT '',
		size    BIGINT,
		mode    BIGINT NOT NULL DEFAULT 0,
		blob_id BIGINT,
		extra   BYTEA NOT NULL DEFAULT '{}',
		PRIMARY KEY (fsid, path)
	)`,
	// json_field reads a string field of stored JSON; NULL when the bytes are not JSON or the
	// field is not a string, so damaged meta never fails a read.
	`CREATE FUNCTION json_field(doc bytea, key text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
	DECLARE j jsonb;
	BEGIN
		j := convert_from(doc, 'UTF8')::jsonb;
		IF jsonb_typeof(j -> key) = 'string' THEN RETURN j ->> key; END IF;
		RETURN NULL;
	EXCEPTION WHEN others THEN
		RETURN NULL;
	END $$`,
	// A message whose parent is not the main-chain record written before it marks its session
	// branched (see the SQLite backend's migration 5). The row is updated only when it changes:
	// the writer updates each session's listing once per batch (batchWriter.touch), and an
	// UPDATE per message would leave a dead version of the row per message until the commit.
	`CREATE FUNCTION message_written() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		IF NOT NEW.is_sidechain AND NEW.parent_uuid <> ''
			AND NOT (SELECT branched FROM sessions WHERE sid = NEW.sid)
			AND NEW.parent_uuid IS DISTINCT FROM (SELECT p.uuid FROM messages p
				WHERE p.sid = NEW.sid AND NOT p.is_sidechain AND p.seq < NEW.seq ORDER BY p.seq DESC LIMIT 1) THEN
			UPDATE sessions SET branched = true WHERE sid = NEW.sid;
		END IF;
		RETURN NULL;
	END $$`,
	`CREATE TRIGGER messages_written AFTER INSERT ON messages FOR EACH ROW EXECUTE FUNCTION message_written()`,
}
