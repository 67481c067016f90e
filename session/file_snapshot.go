package session

import (
	"time"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// A file snapshot is data the conversation records: an import puts the snapshots a
// transcript holds, and the persistence formats read and write them. Checking and putting
// a snapshot (snapshots.Put), taking one of the files on disk and restoring it is package
// snapshots.

// File states in a snapshot.
const (
	FilePresent = "present" // the file existed; its content is the backup, when stored
	FileDeleted = "deleted" // the file did not exist at the message
)

// FileSnapshot is the state of files at one message of a session (seed 002's file-history
// snapshot): for each tracked file, whether it existed, its content hash, and its content
// (the backup), stored as a blob shared by hash.
type FileSnapshot struct {
	ID          string         `json:"id"`
	MessageUUID string         `json:"messageUuid"`
	CreatedAt   time.Time      `json:"-"`
	Root        string         `json:"root,omitempty"`     // the folder the files were read from
	IsUpdate    bool           `json:"isUpdate,omitempty"` // adds files to an earlier snapshot of the message
	Files       []SnapshotFile `json:"files"`
	// Source holds what an imported snapshot record had beside these fields, verbatim (a
	// JSON object), so that an export can write the record again.
	Source json.RawMessage `json:"source,omitempty"`
}

// SnapshotFile is one tracked file of a FileSnapshot.
type SnapshotFile struct {
	Path  string `json:"path"`           // relative to the snapshot's folder, "/"-separated
	State string `json:"state"`          // FilePresent or FileDeleted
	Hash  string `json:"hash,omitempty"` // SHA-256 of the content, in hex, for files sessionkeep read
	Size  *int64 `json:"size,omitempty"`
	Mode  uint32 `json:"mode,omitempty"` // permission bits; 0 when unknown
	// BackedUp says the content is stored, so restoreFiles can write the file.
	BackedUp bool `json:"backedUp"`
	// Content is the file's content when a snapshot is put; never filled when listed.
	Content []byte `json:"-"`
	// Source holds an imported entry's own fields (for a Claude Code backup: backupFileName,
	// version, backupTime), verbatim.
	Source json.RawMessage `json:"source,omitempty"`
}

// MarshalJSON writes the time as envelopes do.
func (f FileSnapshot) MarshalJSON() ([]byte, error) {
	type plain FileSnapshot
	return json.Marshal(struct {
		plain
		Timestamp string `json:"timestamp"`
	}{plain(f), jsonenc.FormatTime(f.CreatedAt)})
}
