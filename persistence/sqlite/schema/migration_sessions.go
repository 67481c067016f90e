package schema

import (
	"fmt"
	"strings"

	"github.com/sessionkeep/sessionkeep/persistence/searchtext"
)

// sessionManagementMigration is migration 3: what sessions need to be lived with — listing
// metadata (tool count, last message and last access, archive, corruption, whether a live
// process holds the session), hosted-agent state (key, checkpoint, SDK session id, the
// position the agent has seen up to), the manual history of stateless responders, and the
// full-text index over message text.
//
// Counters that change with messages are kept by triggers, so every path that writes
// messages (the streaming writer, restores, imports) keeps them right without knowing them.
// The full-text index is external-content FTS5 over a view that extracts the searchable
// text of each complete block: no text is stored twice, and partial checkpoints, replaced
// every few milliseconds while a block streams, are never indexed.
var sessionManagementMigration = []string{
	`ALTER TABLE sessions ADD COLUMN tool_count INTEGER NOT NULL DEFAULT 0`,
	`ALTER TABLE sessions ADD COLUMN last_message_at INTEGER NOT NULL DEFAULT 0`,
	`ALTER TABLE sessions ADD COLUMN last_accessed_at INTEGER NOT NULL DEFAULT 0`,
	`ALTER TABLE sessions ADD COLUMN archived_at INTEGER NOT NULL DEFAULT 0`,
	`ALTER TABLE sessions ADD COLUMN corruption TEXT NOT NULL DEFAULT ''`,
	`ALTER TABLE sessions ADD COLUMN is_open INTEGER NOT NULL DEFAULT 0`,
	`ALTER TABLE sessions ADD COLUMN session_key TEXT`,
	`ALTER TABLE sessions ADD COLUMN checkpoint INTEGER`,
	`ALTER TABLE sessions ADD COLUMN sdk_session_id TEXT NOT NULL DEFAULT ''`,
	`ALTER TABLE sessions ADD COLUMN seen_seq INTEGER NOT NULL DEFAULT 0`,
	`CREATE UNIQUE INDEX sessions_by_key ON sessions(session_key) WHERE session_key IS NOT NULL`,
	`CREATE INDEX sessions_open ON sessions(sid) WHERE is_open = 1`,
	`UPDATE sessions SET
		tool_count = (SELECT COUNT(*) FROM tool_uses t WHERE t.sid = sessions.sid),
		last_message_at = coalesce((SELECT MAX(created_at) FROM messages m WHERE m.sid = sessions.sid), 0),
		last_accessed_at = updated_at`,
	`CREATE TRIGGER messages_update_session AFTER INSERT ON messages BEGIN
		UPDATE sessions SET last_message_at = new.created_at, archived_at = 0, is_open = 1 WHERE sid = new.sid;
	END`,
	`CREATE TRIGGER tool_uses_count AFTER INSERT ON tool_uses BEGIN
		UPDATE sessions SET tool_count = tool_count + 1 WHERE sid = new.sid;
	END`,
	`CREATE TABLE history (
		hid        INTEGER PRIMARY KEY,
		sid        INTEGER NOT NULL,
		role       TEXT NOT NULL,
		content    TEXT NOT NULL,
		created_at INTEGER NOT NULL
	)`,
	`CREATE INDEX history_by_session ON history(sid, hid)`,
	`CREATE INDEX blocks_by_blob ON blocks(blob_id) WHERE blob_id IS NOT NULL`,
	`CREATE VIEW block_search_text(bid, text) AS
		SELECT bid, text FROM (SELECT b.bid AS bid, ` + blockText("b") + ` AS text FROM blocks b WHERE b.partial = 0)
		WHERE text IS NOT NULL`,
	`CREATE VIRTUAL TABLE message_search USING fts5(text, content='block_search_text', content_rowid='bid',
		tokenize='unicode61 remove_diacritics 2')`,
	`CREATE TRIGGER blocks_search_insert AFTER INSERT ON blocks WHEN new.partial = 0 BEGIN
		INSERT INTO message_search(rowid, text) SELECT new.bid, t FROM (SELECT ` + blockText("new") + ` AS t) WHERE t IS NOT NULL;
	END`,
	`CREATE TRIGGER blocks_search_update AFTER UPDATE ON blocks WHEN old.partial = 0 OR new.partial = 0 BEGIN
		INSERT INTO message_search(message_search, rowid, text)
			SELECT 'delete', old.bid, t FROM (SELECT ` + blockText("old") + ` AS t) WHERE old.partial = 0 AND t IS NOT NULL;
		INSERT INTO message_search(rowid, text)
			SELECT new.bid, t FROM (SELECT ` + blockText("new") + ` AS t) WHERE new.partial = 0 AND t IS NOT NULL;
	END`,
	`CREATE TRIGGER blocks_search_delete AFTER DELETE ON blocks WHEN old.partial = 0 BEGIN
		INSERT INTO message_search(message_search, rowid, text)
			SELECT 'delete', old.bid, t FROM (SELECT ` + blockText("old") + ` AS t) WHERE t IS NOT NULL;
	END`,
	`INSERT INTO message_search(message_search) VALUES ('rebuild')`,
}

// contentTexts lists the SQL expressions for the text of the first searchtext.ContentBlocks
// blocks of a tool_result's content array; only text blocks have a text field. SQLite does
// not allow json_each in a trigger, so the blocks are read by index.
func contentTexts() string {
	texts := make([]string, searchtext.ContentBlocks)
	for i := range texts {
		texts[i] = fmt.Sprintf("json_extract(x, '$.content[%d].text')", i)
	}
	return strings.Join(texts, ", ")
}

// blockText is the SQL expression for the searchable text of the block row named row: the
// text of a text block, a tool_use's name and input, a tool_result's text content. Thinking,
// signatures and media are not searched. A body that is not valid JSON has no text, so a
// damaged row can never make a write fail.
func blockText(row string) string {
	return blockTextOf(strings.ReplaceAll(`CAST(coalesce(ROW.body, (SELECT data FROM blobs WHERE id = ROW.blob_id)) AS TEXT)`, "ROW", row))
}

// blockTextOf is blockText of the block JSON that the SQL expression block gives.
func blockTextOf(block string) string {
	return `(SELECT CASE WHEN json_valid(x) THEN
		CASE json_extract(x, '$.type')
		WHEN 'text' THEN json_extract(x, '$.text')
		WHEN 'tool_use' THEN json_extract(x, '$.name') || ' ' || coalesce(json_extract(x, '$.input'), '')
		WHEN 'tool_result' THEN CASE json_type(x, '$.content')
			WHEN 'text' THEN json_extract(x, '$.content')
			WHEN 'array' THEN nullif(concat_ws(' ', ` + contentTexts() + `), '')
			END
		END END FROM (SELECT ` + block + ` AS x))`
}
