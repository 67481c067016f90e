package snapshots

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/goccy/go-json"

	"github.com/sessionkeep/sessionkeep/session"
)

// TakeOptions say where Take reads files and which message it snapshots.
type TakeOptions struct {
	// MessageUUID is the message the snapshot is of; the head when empty.
	MessageUUID string `json:"messageUuid"`
	// Root is the folder relative paths are read from and every path must be inside; the
	// session's project path when empty.
	Root string `json:"root"`
}

// Take reads the files at paths (absolute, or relative to the root) and records
// them as a snapshot of a message: a file that exists is stored present with its hash,
// mode and content, one that does not is stored deleted. Symbolic links are followed, but
// never out of the root (session.ErrPathEscape); a path that names a folder is refused. Nothing is
// recorded when any path is refused.
func Take(s *session.Session, paths []string, opts TakeOptions) (session.FileSnapshot, error) {
	message, err := snapshotMessage(s, opts.MessageUUID) // first: it waits for what is queued
	if err != nil {
		return session.FileSnapshot{}, err
	}
	root, err := snapshotRoot(s, opts.Root)
	if err != nil {
		return session.FileSnapshot{}, err
	}
	dir, err := openFolder(root, false)
	if err != nil {
		return session.FileSnapshot{}, err
	}
	defer dir.close()
	snap := session.FileSnapshot{MessageUUID: message, Root: dir.dir, Files: []session.SnapshotFile{}}
	seen := map[string]bool{}
	for _, p := range paths {
		rel, err := dir.snapshotPath(p)
		if err != nil {
			return session.FileSnapshot{}, err
		}
		if seen[rel] {
			continue
		}
		seen[rel] = true
		file, err := dir.read(rel)
		if err != nil {
			return session.FileSnapshot{}, err
		}
		snap.Files = append(snap.Files, file)
	}
	return Put(s, snap)
}

// snapshotRoot returns the folder a snapshot reads from; the session is in the store.
func snapshotRoot(s *session.Session, root string) (string, error) {
	if root != "" {
		return root, nil
	}
	st, err := s.Store().LoadSession(s.ID())
	if err != nil {
		return "", err
	}
	if st.Info.ProjectPath == "" {
		return "", fmt.Errorf("%w: session %s has no project path; give the root the files are read from", session.ErrInvalidArgument, s.ID())
	}
	return st.Info.ProjectPath, nil
}

// snapshotMessage returns the message a snapshot is of: uuid, which must be a record of the
// session, or the head.
func snapshotMessage(s *session.Session, uuid string) (string, error) {
	if err := s.Sync(); err != nil {
		return "", err
	}
	if uuid == "" {
		head, err := s.Head()
		if err == nil && head == "" {
			err = fmt.Errorf("%w: session %s has no messages to snapshot files at", session.ErrInvalidArgument, s.ID())
		}
		return head, err
	}
	line, err := s.Lineage(uuid)
	if err == nil && line == nil {
		err = fmt.Errorf("%w: session %s has no message %q to snapshot files at", session.ErrMessageNotFound, s.ID(), uuid)
	}
	return uuid, err
}

// read reads the file at the snapshot path p of the folder.
func (f *folder) read(p string) (session.SnapshotFile, error) {
	file := session.SnapshotFile{Path: p, State: session.FileDeleted}
	fi, err := f.check(p)
	if err != nil || fi == nil {
		return file, err
	}
	if fi.IsDir() {
		return file, fmt.Errorf("%w: %s is a folder; snapshot the files in it", session.ErrInvalidArgument, p)
	}
	h, err := f.root.Open(filepath.FromSlash(p))
	if errors.Is(err, fs.ErrNotExist) {
		return file, nil // removed since it was checked
	}
	if err != nil {
		return file, fmt.Errorf("%w: reading %s: %v", session.ErrFileAccess, p, err)
	}
	defer h.Close()
	content, err := io.ReadAll(h)
	if err != nil {
		return file, fmt.Errorf("%w: reading %s: %v", session.ErrFileAccess, p, err)
	}
	file.State, file.Content, file.Mode = session.FilePresent, content, uint32(fi.Mode().Perm())
	return file, nil
}

// List returns the session's file snapshots as a JSON array, in the order they
// were put, without file contents; only those of message uuid when it is not empty.
func List(s *session.Session, uuid string) ([]byte, error) {
	if err := s.Sync(); err != nil {
		return nil, err
	}
	st, err := storeOf(s)
	if err != nil {
		return nil, err
	}
	all, err := st.FileSnapshots(s.ID())
	if err != nil {
		return nil, err
	}
	list := make([]session.FileSnapshot, 0, len(all))
	for _, snap := range all {
		if uuid == "" || snap.MessageUUID == uuid {
			list = append(list, snap)
		}
	}
	return json.Marshal(list)
}
