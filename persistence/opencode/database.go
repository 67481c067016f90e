package opencode

import (
	"database/sql"
	"fmt"
	"net/url"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	_ "modernc.org/sqlite" // the driver of database/sql's "sqlite"
)

// ReadDatabase reads every session of the OpenCode database at path, opened read-only. A
// row that cannot be read is reported in its file's Skipped and left out. A database
// without OpenCode's tables is an error.
func ReadDatabase(path string) ([]*transcript.File, error) {
	var files []*transcript.File
	err := EachSession(path, func(f *transcript.File) error {
		files = append(files, f)
		return nil
	})
	return files, err
}

// EachSession reads the sessions of the OpenCode database at path one at a time, oldest
// first, and hands each to fn as it is read, so that no more than one session is held at
// once; an error fn returns stops the reading and is returned. Otherwise as ReadDatabase.
func EachSession(path string, fn func(*transcript.File) error) error {
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		return fmt.Errorf("opening %s: %w", path, err)
	}
	defer db.Close()
	var tables int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('session', 'message', 'part')`).Scan(&tables); err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	if tables != 3 {
		return fmt.Errorf("%s is not an OpenCode database (it has no session, message and part tables)", path)
	}
	infos, err := sessionRows(db)
	if err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	for _, info := range infos {
		msgs, skipped, err := messageRows(db, info.ID, path)
		if err != nil {
			return fmt.Errorf("reading %s: %w", path, err)
		}
		f := convert(info, msgs, path)
		f.Skipped = append(skipped, f.Skipped...)
		if err := fn(f); err != nil {
			return err
		}
	}
	return nil
}

// sessionRows reads the session table, oldest first.
func sessionRows(db *sql.DB) ([]sessionInfo, error) {
	rows, err := db.Query(`SELECT * FROM session ORDER BY time_created, id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var infos []sessionInfo
	for rows.Next() {
		values := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range values {
			ptrs[i] = &values[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		infos = append(infos, sessionOfRow(cols, values))
	}
	return infos, rows.Err()
}

// sessionOfRow reads a session row by column name: OpenCode adds columns from version to
// version, and the ones read here have kept their names.
func sessionOfRow(cols []string, values []any) sessionInfo {
	var info sessionInfo
	for i, col := range cols {
		s, _ := values[i].(string)
		n, _ := values[i].(int64)
		switch col {
		case "id":
			info.ID = s
		case "project_id":
			info.ProjectID = s
		case "parent_id":
			info.ParentID = s
		case "directory":
			info.Directory = s
		case "title":
			info.Title = s
		case "version":
			info.Version = s
		case "time_created":
			info.Time.Created = n
		case "time_updated":
			info.Time.Updated = n
		}
	}
	return info
}

// messageRows reads a session's messages, each with its parts, in the order OpenCode reads
// them (by creation, then id; parts by id).
func messageRows(db *sql.DB, sessionID, path string) ([]message, []transcript.Skipped, error) {
	rows, err := db.Query(`SELECT m.id, m.data, p.id, p.data FROM message m LEFT JOIN part p ON p.message_id = m.id
		WHERE m.session_id = ? ORDER BY m.time_created, m.id, p.id`, sessionID)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var msgs []message
	var skipped []transcript.Skipped
	for rows.Next() {
		var id, data string
		var partID, partData sql.NullString
		if err := rows.Scan(&id, &data, &partID, &partData); err != nil {
			return nil, nil, err
		}
		if len(msgs) == 0 || msgs[len(msgs)-1].info.ID != id {
			m, err := messageOf(id, []byte(data))
			if err != nil {
				skipped = append(skipped, transcript.Skipped{File: path, Reason: fmt.Sprintf("message %s: %v", id, err)})
				m = message{info: messageInfo{ID: id}, raw: nil}
			}
			msgs = append(msgs, m)
		}
		if partData.Valid && msgs[len(msgs)-1].raw != nil {
			msgs[len(msgs)-1].parts = append(msgs[len(msgs)-1].parts, withID(partData.String, partID.String))
		}
	}
	kept := msgs[:0]
	for _, m := range msgs {
		if m.raw != nil {
			kept = append(kept, m)
		}
	}
	return kept, skipped, rows.Err()
}

// messageOf reads a message's info; the database keeps its id in a column of its own.
func messageOf(id string, data []byte) (message, error) {
	var info messageInfo
	if err := json.Unmarshal(data, &info); err != nil {
		return message{}, fmt.Errorf("data is not a message: %v", err)
	}
	info.ID = id
	return message{info: info, raw: json.RawMessage(data)}, nil
}

// withID puts a part's id (a column of its own in the database) into its JSON, as
// OpenCode's storage files hold it. Data that is not a JSON object is kept as it is (and
// reported when it is converted).
func withID(data, id string) json.RawMessage {
	var fields map[string]json.RawMessage
	if json.Unmarshal([]byte(data), &fields) != nil || fields == nil {
		return json.RawMessage(data)
	}
	if _, ok := fields["id"]; !ok {
		fields["id"] = json.RawMessage(fmt.Sprintf("%q", id))
	}
	out, _ := json.Marshal(fields)
	return out
}
