package session

import (
	"fmt"
	"strings"
)

// Rename sets the title of session id; the first prompt no longer names it.
func (m *Manager) Rename(id, title string) error {
	title = strings.TrimSpace(title)
	if title == "" {
		return fmt.Errorf("%w: the title is empty", ErrInvalidArgument)
	}
	if err := m.mustExist(id); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if s, ok := m.live[id]; ok {
		s.mu.Lock()
		s.titled = true
		s.mu.Unlock()
	}
	m.store.Apply(RenameSession{SessionID: id, Title: title})
	return nil
}

// Archive hides session id from listings and from Latest until it is unarchived or
// written to again. Nothing of it is deleted.
func (m *Manager) Archive(id string) error {
	if err := m.mustExist(id); err != nil {
		return err
	}
	m.store.Apply(SetArchived{SessionID: id, At: m.now().UTC()})
	return nil
}

// Unarchive lists session id again.
func (m *Manager) Unarchive(id string) error {
	if err := m.mustExist(id); err != nil {
		return err
	}
	m.store.Apply(SetArchived{SessionID: id})
	return nil
}

// Delete deletes session id and everything it holds, for good. A live Session of it in
// this process is closed first; its objects then fail with ErrStoreClosed.
func (m *Manager) Delete(id string) error {
	if err := m.mustExist(id); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if s, ok := m.live[id]; ok {
		s.shutdown(false)
		delete(m.live, id)
	}
	m.store.Apply(DeleteSession{SessionID: id})
	return m.store.Sync()
}

// MoveProject moves the sessions of project from, and of the folders inside it, to to, and
// returns how many moved. Sessions are keyed by id, so they keep everything else.
func (m *Manager) MoveProject(from, to string) (int64, error) {
	from, to = trimSeparator(from), trimSeparator(to)
	if from == "" || to == "" {
		return 0, fmt.Errorf("%w: both project paths must be given", ErrInvalidArgument)
	}
	if err := m.usable(); err != nil {
		return 0, err
	}
	if err := m.store.Sync(); err != nil {
		return 0, err
	}
	if from == to {
		return 0, nil
	}
	n, err := countProjectSessions(m.store, from)
	if err != nil || n == 0 {
		return 0, err
	}
	m.store.Apply(MoveProject{From: from, To: to})
	return n, m.store.Sync()
}

// trimSeparator drops the path separators a path ends with, keeping a root as it is.
func trimSeparator(path string) string {
	trimmed := strings.TrimRight(path, `/\`)
	if trimmed == "" {
		return path
	}
	return trimmed
}

// mustExist returns ErrSessionNotFound unless the store holds session id.
func (m *Manager) mustExist(id string) error {
	if id == "" {
		return fmt.Errorf("%w: the session id is empty", ErrInvalidArgument)
	}
	if err := m.usable(); err != nil {
		return err
	}
	if err := m.store.Sync(); err != nil {
		return err
	}
	_, err := m.stored(id)
	return err
}

// stored returns the listing of session id; ErrSessionNotFound when the store holds none.
func (m *Manager) stored(id string) (SessionInfo, error) {
	if id == "" {
		return SessionInfo{}, fmt.Errorf("%w: no session has id %q", ErrSessionNotFound, id)
	}
	found, err := m.store.FindSessions(id, 1)
	if err != nil {
		return SessionInfo{}, err
	}
	if len(found) == 0 || found[0].ID != id {
		return SessionInfo{}, fmt.Errorf("%w: no session has id %q", ErrSessionNotFound, id)
	}
	return found[0], nil
}

// countProjectSessions counts the sessions of projectPath and of the folders inside it,
// archived ones included: the sessions MoveProject moves. Listing only the project paths
// of 1,000 sessions costs 2 ms here against 0.2 ms for a COUNT in SQLite (sqlite's
// BenchmarkUsageSums), small beside the move itself, so no backend needs its own count.
func countProjectSessions(list Listing, projectPath string) (int64, error) {
	all, err := list.ListSessions(ListFilter{IncludeArchived: true, Want: InfoProjectPath})
	var n int64
	for _, info := range all {
		if inProject(info.ProjectPath, projectPath) {
			n++
		}
	}
	return n, err
}

// inProject reports whether path is projectPath or a folder inside it, with either
// separator.
func inProject(path, projectPath string) bool {
	rest, ok := strings.CutPrefix(path, projectPath)
	return ok && (rest == "" || rest[0] == '/' || rest[0] == '\\')
}
