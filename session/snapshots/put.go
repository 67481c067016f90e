package snapshots

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"

	"github.com/google/uuid"

	"github.com/sessionkeep/sessionkeep/session"
)

// Put records a snapshot built elsewhere, such as one an import read from a Claude Code
// file-history-snapshot record, and returns it as stored. ID (a new UUID v7 when empty)
// and CreatedAt (now when zero) are filled in; a file given Content is backed up and gets
// its Hash and Size when they are missing. The message is not checked, so an
// import may put a snapshot of a record queued with it; paths are kept as given, and a
// path restoreFiles cannot write inside its folder (absolute, with "..") is refused there.
// A snapshot whose ID the session holds already is left as it is.
func Put(s *session.Session, snap session.FileSnapshot) (session.FileSnapshot, error) {
	if err := Check(&snap); err != nil {
		return session.FileSnapshot{}, err
	}
	if snap.ID == "" {
		snap.ID = uuid.Must(uuid.NewV7()).String()
	}
	if snap.CreatedAt.IsZero() {
		snap.CreatedAt = s.Now()
	}
	if err := s.Record(session.PutFileSnapshot{SessionID: s.ID(), Snapshot: snap}); err != nil {
		return session.FileSnapshot{}, err
	}
	return snap, nil
}

// Check checks a snapshot to put and fills in what its contents tell.
func Check(snap *session.FileSnapshot) error {
	if snap.MessageUUID == "" {
		return fmt.Errorf("%w: a file snapshot needs the uuid of its message", session.ErrInvalidArgument)
	}
	if snap.Source = session.NullToNil(snap.Source); snap.Source != nil && snap.Source[0] != '{' {
		return fmt.Errorf("%w: a file snapshot's source must be a JSON object", session.ErrInvalidArgument)
	}
	for i := range snap.Files {
		f := &snap.Files[i]
		switch {
		case f.Path == "":
			return fmt.Errorf("%w: file %d of the snapshot has no path", session.ErrInvalidArgument, i)
		case f.State != session.FilePresent && f.State != session.FileDeleted:
			return fmt.Errorf("%w: file %s has state %q; want %q or %q", session.ErrInvalidArgument, f.Path, f.State, session.FilePresent, session.FileDeleted)
		case f.State == session.FileDeleted && f.Content != nil:
			return fmt.Errorf("%w: file %s is deleted but has content", session.ErrInvalidArgument, f.Path)
		}
		if f.Source = session.NullToNil(f.Source); f.Source != nil && f.Source[0] != '{' {
			return fmt.Errorf("%w: the source of file %s must be a JSON object", session.ErrInvalidArgument, f.Path)
		}
		f.BackedUp = f.Content != nil
		if f.Content == nil {
			continue
		}
		if f.Hash == "" { // hashed only when missing: an import's files come with theirs
			sum := sha256.Sum256(f.Content)
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
			return fmt.Errorf("%w: the snapshot names file %s twice", session.ErrInvalidArgument, snap.Files[i].Path)
		}
	}
	return nil
}
