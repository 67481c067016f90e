package snapshots

import (
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
)

// FileContent returns the content file path had in snapshot snapshotID of the session, as
// the snapshot recorded it (not the state at its message, which Restore works out from
// several snapshots). path is matched as the snapshot lists it. It is nil when the
// snapshot records the file as deleted. A snapshot the session does not hold is
// session.ErrSnapshotNotFound, a path it does not track session.ErrFileNotInSnapshot, and a
// present file whose content was not kept (imported without its backup)
// session.ErrBackupMissing. Nothing is written.
func FileContent(s *session.Session, snapshotID, path string) ([]byte, error) {
	if snapshotID == "" || path == "" {
		return nil, fmt.Errorf("%w: fileContent needs a snapshot id and a file path", session.ErrInvalidArgument)
	}
	if err := s.Sync(); err != nil { // a snapshot just put is readable
		return nil, err
	}
	st, err := storeOf(s)
	if err != nil {
		return nil, err
	}
	// Content found is the common case and one indexed read; only without it is the
	// session's list of snapshots read, to say why there is none.
	content, err := st.FileContent(s.ID(), snapshotID, path)
	if err != nil || content != nil {
		return content, err
	}
	file, err := trackedFile(st, s.ID(), snapshotID, path)
	switch {
	case err != nil:
		return nil, err
	case file.State == session.FileDeleted:
		return nil, nil
	case !file.BackedUp:
		return nil, fmt.Errorf("%w: snapshot %s tracks %s but holds no content for it", session.ErrBackupMissing, snapshotID, path)
	}
	return nil, fmt.Errorf("%w: the content of %s is missing from the store", session.ErrBackupMissing, path)
}

// trackedFile returns the entry of file path in snapshot snapshotID of session id.
func trackedFile(st Store, id, snapshotID, path string) (session.SnapshotFile, error) {
	snaps, err := st.FileSnapshots(id)
	if err != nil {
		return session.SnapshotFile{}, err
	}
	for _, snap := range snaps {
		if snap.ID != snapshotID {
			continue
		}
		for _, f := range snap.Files {
			if f.Path == path {
				return f, nil
			}
		}
		return session.SnapshotFile{}, fmt.Errorf("%w: snapshot %s does not track %s", session.ErrFileNotInSnapshot, snapshotID, path)
	}
	return session.SnapshotFile{}, fmt.Errorf("%w: session %s has no file snapshot %s", session.ErrSnapshotNotFound, id, snapshotID)
}
