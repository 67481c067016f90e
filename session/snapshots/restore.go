package snapshots

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"

	"github.com/sessionkeep/sessionkeep/session"
)

// RestoreOptions say where Restore writes.
type RestoreOptions struct {
	// Into is the folder the files are written into, created when missing. Nothing is ever
	// written outside it.
	Into string `json:"into"`
	// RemoveDeleted removes the files that did not exist at the message from Into. Without
	// it they are left in place and listed in LeftInPlace.
	RemoveDeleted bool `json:"removeDeleted"`
}

// RestoreResult says what Restore did, each list in path order.
type RestoreResult struct {
	MessageUUID string   `json:"messageUuid"`
	Written     []string `json:"written"`     // files written with their content at the message
	Removed     []string `json:"removed"`     // files deleted at the message, removed from Into
	LeftInPlace []string `json:"leftInPlace"` // files deleted at the message, still in Into
}

// restoredFile is one file Restore puts back: the latest state recorded for its path.
type restoredFile struct {
	session.SnapshotFile
	snapshotID string
	exists     fs.FileInfo // what the path holds in Into now
}

// Restore puts the files back as they were at message uuid, into opts.Into. The state
// of a file at a message is the latest one recorded for its path by the snapshots of that
// message and of the messages before it on its branch (its ancestors), so a snapshot need
// only hold the files that changed. A file deleted at the message is removed from Into only
// with RemoveDeleted, and only when it is a file or a link, never a folder.
//
// Every path is checked before anything is written: a path that is absolute, has "..", or
// leads through a symbolic link out of Into is session.ErrPathEscape, and a present file whose
// content was never stored is session.ErrBackupMissing; either way nothing is written. Each file is
// written whole (to a temporary file renamed over it), so a failure while writing (a full
// disk) leaves the files before it restored and the others as they were.
func Restore(s *session.Session, uuid string, opts RestoreOptions) (RestoreResult, error) {
	if opts.Into == "" {
		return RestoreResult{}, fmt.Errorf("%w: restoreFiles needs the folder to write into", session.ErrInvalidArgument)
	}
	st, err := storeOf(s)
	if err != nil {
		return RestoreResult{}, err
	}
	files, err := filesAt(s, st, uuid)
	if err != nil {
		return RestoreResult{}, err
	}
	into, err := openInto(opts.Into)
	if err != nil {
		return RestoreResult{}, err
	}
	if into != nil {
		defer into.close()
	}
	if err := checkRestore(into, files); err != nil {
		return RestoreResult{}, err
	}
	if into == nil {
		if into, err = openFolder(opts.Into, true); err != nil {
			return RestoreResult{}, err
		}
		defer into.close()
	}
	return writeFiles(st, s.ID(), into, uuid, files, opts.RemoveDeleted)
}

// openInto opens the folder to restore into; nil when it does not exist yet, so that
// nothing is created before every path is checked.
func openInto(dir string) (*folder, error) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return openFolder(dir, false)
}

// filesAt returns the state of every file recorded at message uuid or before it on its
// branch, the latest state of each path, in path order.
func filesAt(s *session.Session, st Store, uuid string) ([]restoredFile, error) {
	if err := s.Sync(); err != nil {
		return nil, err
	}
	line, err := s.Lineage(uuid)
	if err != nil {
		return nil, err
	}
	if line == nil {
		return nil, fmt.Errorf("%w: session %s has no message %q to restore files at", session.ErrMessageNotFound, s.ID(), uuid)
	}
	position := map[string]int{}
	for pos, uuid := range line {
		position[uuid] = pos
	}
	snaps, err := st.FileSnapshots(s.ID())
	if err != nil {
		return nil, err
	}
	sort.SliceStable(snaps, func(a, b int) bool {
		return position[snaps[a].MessageUUID] < position[snaps[b].MessageUUID]
	})
	latest := map[string]restoredFile{}
	found := false
	for _, snap := range snaps {
		if _, ok := position[snap.MessageUUID]; !ok {
			continue
		}
		found = true
		for _, f := range snap.Files {
			latest[path.Clean(f.Path)] = restoredFile{SnapshotFile: f, snapshotID: snap.ID}
		}
	}
	if !found {
		return nil, fmt.Errorf("%w: no file snapshot was taken at message %s or before it on its branch", session.ErrSnapshotNotFound, uuid)
	}
	files := make([]restoredFile, 0, len(latest))
	for _, f := range latest {
		files = append(files, f)
	}
	sort.Slice(files, func(a, b int) bool { return files[a].Path < files[b].Path })
	return files, nil
}

// checkRestore checks every file before anything is written, noting what each path holds
// now; into is nil when the folder does not exist yet.
func checkRestore(into *folder, files []restoredFile) error {
	for i := range files {
		f := &files[i]
		clean, err := localPath(f.Path)
		if err != nil {
			return err
		}
		f.Path = clean
		if f.State == session.FilePresent && !f.BackedUp {
			return fmt.Errorf("%w: the snapshot holds no content for %s, so it cannot be restored; nothing was written", session.ErrBackupMissing, f.Path)
		}
		if into == nil {
			continue
		}
		if f.exists, err = into.check(f.Path); err != nil {
			return err
		}
		if f.State == session.FilePresent && f.exists != nil && f.exists.IsDir() {
			return fmt.Errorf("%w: %s is a folder in %s; the snapshot has a file there", session.ErrFileAccess, f.Path, into.dir)
		}
	}
	return nil
}

// writeFiles writes the checked files of session id into the folder, their content read
// from st.
func writeFiles(st Store, id string, into *folder, uuid string, files []restoredFile, removeDeleted bool) (RestoreResult, error) {
	res := RestoreResult{MessageUUID: uuid, Written: []string{}, Removed: []string{}, LeftInPlace: []string{}}
	for _, f := range files {
		name := filepath.FromSlash(f.Path)
		switch {
		case f.State == session.FilePresent:
			content, err := st.FileContent(id, f.snapshotID, f.Path)
			if err == nil && content == nil {
				err = fmt.Errorf("%w: the content of %s is missing from the store", session.ErrBackupMissing, f.Path)
			}
			if err == nil {
				err = into.write(name, content, fs.FileMode(f.Mode))
			}
			if err != nil {
				return res, err
			}
			res.Written = append(res.Written, f.Path)
		case f.exists == nil:
		case removeDeleted && !f.exists.IsDir():
			if err := into.root.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return res, fmt.Errorf("%w: removing %s: %v", session.ErrFileAccess, f.Path, err)
			}
			res.Removed = append(res.Removed, f.Path)
		default:
			res.LeftInPlace = append(res.LeftInPlace, f.Path)
		}
	}
	return res, nil
}

// write writes content to name whole: to a temporary file beside it, renamed over it, so
// that a reader never sees half a file and a link at name is replaced, not followed.
func (f *folder) write(name string, content []byte, mode fs.FileMode) error {
	if mode == 0 {
		mode = 0o644
	}
	fail := func(err error) error {
		return fmt.Errorf("%w: writing %s: %v", session.ErrFileAccess, filepath.ToSlash(name), err)
	}
	if dir := filepath.Dir(name); dir != "." {
		if err := f.root.MkdirAll(dir, 0o755); err != nil {
			return fail(err)
		}
	}
	var random [8]byte
	rand.Read(random[:])
	tmp := filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+".sessionkeep-"+hex.EncodeToString(random[:]))
	h, err := f.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode.Perm())
	if err != nil {
		return fail(err)
	}
	_, err = h.Write(content)
	if err == nil {
		err = h.Chmod(mode.Perm()) // the umask narrowed the mode it was created with
	}
	if closeErr := h.Close(); err == nil {
		err = closeErr
	}
	if err == nil {
		err = f.root.Rename(tmp, name)
	}
	if err != nil {
		f.root.Remove(tmp)
		return fail(err)
	}
	return nil
}
