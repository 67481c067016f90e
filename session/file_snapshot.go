package session

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"time"

	"github.com/goccy/go-json"
	"github.com/google/uuid"
)

// A file snapshot is data the conversation records: an import puts the snapshots a
// transcript holds, and the persistence formats read and write them. Taking snapshots of
// files on disk and restoring them is package snapshots.

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
	}{plain(f), FormatTime(f.CreatedAt)})
}

// PutFileSnapshot records a snapshot built elsewhere, such as one an import read from a
// Claude Code file-history-snapshot record, and returns it as stored. ID (a new UUID v7
// when empty) and CreatedAt (now when zero) are filled in; a file given Content is backed
// up and gets its Hash and Size when they are missing. The message is not checked, so an
// import may put a snapshot of a record queued with it; paths are kept as given, and a
// path restoreFiles cannot write inside its folder (absolute, with "..") is refused there.
// A snapshot whose ID the session holds already is left as it is.
func (s *Session) PutFileSnapshot(snap FileSnapshot) (FileSnapshot, error) {
	if err := checkSnapshot(&snap); err != nil {
		return FileSnapshot{}, err
	}
	if err := s.lock(); err != nil {
		return FileSnapshot{}, err
	}
	defer s.mu.Unlock()
	if snap.ID == "" {
		snap.ID = uuid.Must(uuid.NewV7()).String()
	}
	if snap.CreatedAt.IsZero() {
		snap.CreatedAt = s.mgr.now()
	}
	s.mgr.store.Apply(PutFileSnapshot{SessionID: s.id, Snapshot: snap})
	return snap, nil
}

// checkSnapshot checks a snapshot to put and fills in what its contents tell.
func checkSnapshot(snap *FileSnapshot) error {
	if snap.MessageUUID == "" {
		return fmt.Errorf("%w: a file snapshot needs the uuid of its message", ErrInvalidArgument)
	}
	if snap.Source = nullToNil(snap.Source); snap.Source != nil && snap.Source[0] != '{' {
		return fmt.Errorf("%w: a file snapshot's source must be a JSON object", ErrInvalidArgument)
	}
	for i := range snap.Files {
		f := &snap.Files[i]
		switch {
		case f.Path == "":
			return fmt.Errorf("%w: file %d of the snapshot has no path", ErrInvalidArgument, i)
		case f.State != FilePresent && f.State != FileDeleted:
			return fmt.Errorf("%w: file %s has state %q; want %q or %q", ErrInvalidArgument, f.Path, f.State, FilePresent, FileDeleted)
		case f.State == FileDeleted && f.Content != nil:
			return fmt.Errorf("%w: file %s is deleted but has content", ErrInvalidArgument, f.Path)
		}
		if f.Source = nullToNil(f.Source); f.Source != nil && f.Source[0] != '{' {
			return fmt.Errorf("%w: the source of file %s must be a JSON object", ErrInvalidArgument, f.Path)
		}
		f.BackedUp = f.Content != nil
		if f.Content == nil {
			continue
		}
		sum := sha256.Sum256(f.Content)
		if f.Hash == "" {
			f.Hash = hex.EncodeToString(sum[:])
		}
		if f.Size == nil {
			size := int64(len(f.Content))
			f.Size = &size
		}
	}
	sort.SliceStable(snap.Files, func(a, b int) bool { return snap.Files[a].Path < snap.Files[b].Path })
	for i := 1; i < len(snap.Files); i++ {
		if snap.Files[i].Path == snap.Files[i-1].Path {
			return fmt.Errorf("%w: the snapshot names file %s twice", ErrInvalidArgument, snap.Files[i].Path)
		}
	}
	return nil
}
