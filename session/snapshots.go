package session

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"
	"time"

	"github.com/goccy/go-json"
	"github.com/google/uuid"
)

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

// SnapshotOptions say where SnapshotFiles reads files and which message it snapshots.
type SnapshotOptions struct {
	// MessageUUID is the message the snapshot is of; the head when empty.
	MessageUUID string `json:"messageUuid"`
	// Root is the folder relative paths are read from and every path must be inside; the
	// session's project path when empty.
	Root string `json:"root"`
}

// SnapshotFiles reads the files at paths (absolute, or relative to the root) and records
// them as a snapshot of a message: a file that exists is stored present with its hash,
// mode and content, one that does not is stored deleted. Symbolic links are followed, but
// never out of the root (ErrPathEscape); a path that names a folder is refused. Nothing is
// recorded when any path is refused.
func (s *Session) SnapshotFiles(paths []string, opts SnapshotOptions) (FileSnapshot, error) {
	message, err := s.snapshotMessage(opts.MessageUUID) // first: it waits for what is queued
	if err != nil {
		return FileSnapshot{}, err
	}
	root, err := s.snapshotRoot(opts.Root)
	if err != nil {
		return FileSnapshot{}, err
	}
	dir, err := openFolder(root, false)
	if err != nil {
		return FileSnapshot{}, err
	}
	defer dir.close()
	snap := FileSnapshot{MessageUUID: message, Root: dir.dir, Files: []SnapshotFile{}}
	seen := map[string]bool{}
	for _, p := range paths {
		rel, err := dir.snapshotPath(p)
		if err != nil {
			return FileSnapshot{}, err
		}
		if seen[rel] {
			continue
		}
		seen[rel] = true
		file, err := dir.read(rel)
		if err != nil {
			return FileSnapshot{}, err
		}
		snap.Files = append(snap.Files, file)
	}
	return s.PutFileSnapshot(snap)
}

// snapshotRoot returns the folder a snapshot reads from; the session is in the store.
func (s *Session) snapshotRoot(root string) (string, error) {
	if root != "" {
		return root, nil
	}
	st, err := s.mgr.store.LoadSession(s.id)
	if err != nil {
		return "", err
	}
	if st.Info.ProjectPath == "" {
		return "", fmt.Errorf("%w: session %s has no project path; give the root the files are read from", ErrInvalidArgument, s.id)
	}
	return st.Info.ProjectPath, nil
}

// snapshotMessage returns the message a snapshot is of: uuid, which must be a record of the
// session, or the head.
func (s *Session) snapshotMessage(uuid string) (string, error) {
	if err := s.readable(); err != nil {
		return "", err
	}
	if uuid == "" {
		head, err := s.Head()
		if err == nil && head == "" {
			err = fmt.Errorf("%w: session %s has no messages to snapshot files at", ErrInvalidArgument, s.id)
		}
		return head, err
	}
	t, err := s.loadTree()
	if err == nil && t.find(uuid) < 0 {
		err = fmt.Errorf("%w: session %s has no message %q to snapshot files at", ErrMessageNotFound, s.id, uuid)
	}
	return uuid, err
}

// read reads the file at the snapshot path p of the folder.
func (f *folder) read(p string) (SnapshotFile, error) {
	file := SnapshotFile{Path: p, State: FileDeleted}
	fi, err := f.check(p)
	if err != nil || fi == nil {
		return file, err
	}
	if fi.IsDir() {
		return file, fmt.Errorf("%w: %s is a folder; snapshot the files in it", ErrInvalidArgument, p)
	}
	h, err := f.root.Open(filepath.FromSlash(p))
	if errors.Is(err, fs.ErrNotExist) {
		return file, nil // removed since it was checked
	}
	if err != nil {
		return file, fmt.Errorf("%w: reading %s: %v", ErrFileAccess, p, err)
	}
	defer h.Close()
	content, err := io.ReadAll(h)
	if err != nil {
		return file, fmt.Errorf("%w: reading %s: %v", ErrFileAccess, p, err)
	}
	file.State, file.Content, file.Mode = FilePresent, content, uint32(fi.Mode().Perm())
	return file, nil
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

// FileSnapshots returns the session's file snapshots as a JSON array, in the order they
// were put, without file contents; only those of message uuid when it is not empty.
func (s *Session) FileSnapshots(uuid string) ([]byte, error) {
	if err := s.readable(); err != nil {
		return nil, err
	}
	all, err := s.mgr.store.FileSnapshots(s.id)
	if err != nil {
		return nil, err
	}
	list := make([]FileSnapshot, 0, len(all))
	for _, snap := range all {
		if uuid == "" || snap.MessageUUID == uuid {
			list = append(list, snap)
		}
	}
	return json.Marshal(list)
}
