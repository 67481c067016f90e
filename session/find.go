package session

import (
	"fmt"
	"strings"
)

// ambiguousShown is how many of the sessions an ambiguous prefix matches are named in
// the error.
const ambiguousShown = 5

// Latest opens the session of projectPath written to last, leaving archived sessions
// out; nil when the project has none. It is what --continue resumes.
func (m *Manager) Latest(projectPath string) (*Session, error) {
	list, err := m.List(ListFilter{ProjectPath: projectPath, Limit: 1})
	if err != nil || len(list) == 0 {
		return nil, err
	}
	return m.Open(list[0].ID)
}

// Find opens the session whose id is idOrPrefix, or the one session whose id starts with
// it. It is what --resume <id> resumes.
func (m *Manager) Find(idOrPrefix string) (*Session, error) {
	info, err := m.Resolve(idOrPrefix)
	if err != nil {
		return nil, err
	}
	return m.Open(info.ID)
}

// Resolve returns the listing of the session whose id is idOrPrefix, or of the one
// session whose id starts with it: ErrSessionNotFound when none does, ErrAmbiguousID when
// several do (the error names them).
func (m *Manager) Resolve(idOrPrefix string) (SessionInfo, error) {
	if idOrPrefix == "" {
		return SessionInfo{}, fmt.Errorf("%w: the session id or prefix is empty", ErrInvalidArgument)
	}
	if err := m.usable(); err != nil {
		return SessionInfo{}, err
	}
	if err := m.store.Sync(); err != nil {
		return SessionInfo{}, err
	}
	found, err := m.store.FindSessions(idOrPrefix, ambiguousShown+1)
	if err != nil {
		return SessionInfo{}, err
	}
	for _, info := range found {
		if info.ID == idOrPrefix {
			return info, nil
		}
	}
	switch len(found) {
	case 0:
		return SessionInfo{}, fmt.Errorf("%w: no session id is or starts with %q", ErrSessionNotFound, idOrPrefix)
	case 1:
		return found[0], nil
	}
	return SessionInfo{}, ambiguous(idOrPrefix, found)
}

func ambiguous(prefix string, found []SessionInfo) error {
	names := make([]string, 0, ambiguousShown)
	for i, info := range found {
		if i == ambiguousShown {
			names = append(names, "…")
			break
		}
		name := info.ID
		if info.Title != "" {
			name += fmt.Sprintf(" (%s)", info.Title)
		}
		names = append(names, name)
	}
	return fmt.Errorf("%w: %q starts more than one session id: %s; give more of the id", ErrAmbiguousID, prefix, strings.Join(names, ", "))
}

// Details returns the listing of session id with its message counts and its usage by
// model, priced by prices when they are given.
func (m *Manager) Details(id string, prices Prices) (SessionDetails, error) {
	if err := prices.Validate(); err != nil {
		return SessionDetails{}, err
	}
	if err := m.usable(); err != nil {
		return SessionDetails{}, err
	}
	if err := m.store.Sync(); err != nil {
		return SessionDetails{}, err
	}
	info, err := m.stored(id)
	if err != nil {
		return SessionDetails{}, err
	}
	d, err := sessionUsage(m.store, info)
	if err != nil {
		return d, err
	}
	d.reconcileUsage()
	d.price(prices)
	return d, nil
}

// Info returns the session's details, everything it recorded so far included.
func (s *Session) Info(prices Prices) (SessionDetails, error) {
	if err := s.readable(); err != nil {
		return SessionDetails{}, err
	}
	return s.mgr.Details(s.id, prices)
}
