package claudecode

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// snapshotType is the type of the records in which Claude Code notes the files it backed
// up before changing them.
const snapshotType = "file-history-snapshot"

// historyRecord is a file-history-snapshot record. Its own messageId differs from the
// snapshot's on updates (it names the message that made the update).
type historyRecord struct {
	Snapshot struct {
		MessageID          string                     `json:"messageId"`
		TrackedFileBackups map[string]json.RawMessage `json:"trackedFileBackups"`
		Timestamp          string                     `json:"timestamp"`
	} `json:"snapshot"`
	IsSnapshotUpdate bool `json:"isSnapshotUpdate"`
}

// backupEntry is one file of trackedFileBackups: BackupFileName is null when the file did
// not exist at the message.
type backupEntry struct {
	BackupFileName *string `json:"backupFileName"`
}

// fileSnapshot returns the file snapshot a file-history-snapshot record (raw, decoded one
// level deep in f) tells, with the
// record's uuid as its id, or nil for any other record or one that names no message. Paths
// under the session's working folder are made relative to it (restoreFiles writes only
// relative paths); the record's fields beside the snapshot, and each file's own fields,
// are kept as the snapshot's sources.
func (c *converter) fileSnapshot(raw []byte, f map[string]json.RawMessage, uuid string) *session.FileSnapshot {
	var h historyRecord
	if json.Unmarshal(raw, &h) != nil || h.Snapshot.MessageID == "" {
		return nil
	}
	source := map[string]json.RawMessage{}
	for name, v := range f {
		if name != "snapshot" {
			source[name] = v
		}
	}
	snap := &session.FileSnapshot{
		ID: uuid, MessageUUID: h.Snapshot.MessageID, Root: c.lastCwd, IsUpdate: h.IsSnapshotUpdate,
		CreatedAt: transcript.ParseTime(h.Snapshot.Timestamp), Source: blocks.MustJSON(source), Files: []session.SnapshotFile{},
	}
	byPath := map[string]int{}
	// in name order, so that reading a file twice gives the same snapshot (and the same one of
	// a file named both absolute and relative)
	for _, p := range slices.Sorted(maps.Keys(h.Snapshot.TrackedFileBackups)) {
		raw := h.Snapshot.TrackedFileBackups[p]
		var entry backupEntry
		rel := c.relativePath(p)
		if rel == "" || len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &entry) != nil {
			continue
		}
		file := session.SnapshotFile{Path: rel, State: session.FileDeleted, Source: raw}
		if entry.BackupFileName != nil {
			file.State = session.FilePresent
		}
		if i, dup := byPath[rel]; dup { // the same file named absolute and relative
			snap.Files[i] = file
			continue
		}
		byPath[rel] = len(snap.Files)
		snap.Files = append(snap.Files, file)
	}
	return snap
}

// relativePath returns p, a path Claude Code tracked, relative to the session's working
// folder when it is an absolute path inside it, "/"-separated.
func (c *converter) relativePath(p string) string {
	if c.lastCwd == "" || !filepath.IsAbs(p) {
		return p
	}
	rel, err := filepath.Rel(c.lastCwd, p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return p
	}
	return filepath.ToSlash(rel)
}

// FileHistoryDir returns where Claude Code keeps the file backups of the sessions of the
// transcript at path (<claude home>/file-history, the transcript being in
// <claude home>/projects/<project>/), or "" when path is not in such a layout.
func FileHistoryDir(path string) string {
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		if filepath.Base(dir) == "projects" {
			return filepath.Join(filepath.Dir(dir), "file-history")
		}
		if parent := filepath.Dir(dir); parent == dir {
			return ""
		}
	}
}

// LoadBackups reads the content of each file the transcript's snapshots backed up from the
// first of dirs that holds it, as <dir>/<session id>/<backupFileName>. A backup found in
// none of them leaves its file without content: listed, but not restorable.
func (t *Transcript) LoadBackups(dirs ...string) {
	loadBackups(t.Records, t.Target.Info.ID, dirs)
}

// loadBackups gives the file snapshots of recs, records of session sessionID, the content
// of their backups, read from the first of dirs that holds each.
func loadBackups(recs []importing.Record, sessionID string, dirs []string) {
	read := map[string][]byte{} // backupFileName → content, nil when not found
	for _, rec := range recs {
		if rec.FileSnapshot == nil {
			continue
		}
		for i := range rec.FileSnapshot.Files {
			file := &rec.FileSnapshot.Files[i]
			var entry backupEntry
			if file.State != session.FilePresent || json.Unmarshal(file.Source, &entry) != nil || entry.BackupFileName == nil {
				continue
			}
			name := *entry.BackupFileName
			content, done := read[name]
			if !done {
				content = readBackup(dirs, sessionID, name)
				read[name] = content
			}
			file.Content = content
		}
	}
}

// readBackup returns the content of backup name of a session, from the first of dirs that
// holds it, or nil.
func readBackup(dirs []string, sessionID, name string) []byte {
	if name == "" || name != filepath.Base(name) || name == "." || name == ".." ||
		sessionID == "" || sessionID != filepath.Base(sessionID) || sessionID == "." || sessionID == ".." {
		return nil // only a file of the session's own backup folder is read
	}
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		content, err := os.ReadFile(filepath.Join(dir, sessionID, name))
		if err == nil {
			if content == nil {
				content = []byte{}
			}
			return content
		}
	}
	return nil
}
