package catalog

import (
	"fmt"
	"strings"

	"github.com/sessionkeep/sessionkeep/session"
)

// ambiguousShown is how many of the sessions an ambiguous prefix matches are named in
// the error.
const ambiguousShown = 5

// Latest opens the session of projectPath written to last, leaving archived sessions
// out; nil when the project has none. It is what --continue resumes.
func Latest(m *session.Manager, projectPath string) (*session.Session, error) {
	list, err := List(m, ListFilter{ProjectPath: projectPath, Limit: 1})
	if err != nil || len(list) == 0 {
		return nil, err
	}
	return m.Open(list[0].ID)
}

// Find opens the session whose id is idOrPrefix, or the one session whose id starts with
// it. It is what --resume <id> resumes.
func Find(m *session.Manager, idOrPrefix string) (*session.Session, error) {
	info, err := Resolve(m, idOrPrefix)
	if err != nil {
		return nil, err
	}
	return m.Open(info.ID)
}

// Resolve returns the listing of the session whose id is idOrPrefix, or of the one
// session whose id starts with it: session.ErrSessionNotFound when none does, session.ErrAmbiguousID when
// several do (the error names them).
func Resolve(m *session.Manager, idOrPrefix string) (session.SessionInfo, error) {
	if idOrPrefix == "" {
		return session.SessionInfo{}, fmt.Errorf("%w: the session id or prefix is empty", session.ErrInvalidArgument)
	}
	st, err := ready(m)
	if err != nil {
		return session.SessionInfo{}, err
	}
	found, err := st.FindSessions(idOrPrefix, ambiguousShown+1)
	if err != nil {
		return session.SessionInfo{}, err
	}
	for _, info := range found {
		if info.ID == idOrPrefix {
			return info, nil
		}
	}
	switch len(found) {
	case 0:
		return session.SessionInfo{}, fmt.Errorf("%w: no session id is or starts with %q", session.ErrSessionNotFound, idOrPrefix)
	case 1:
		return found[0], nil
	}
	return session.SessionInfo{}, ambiguous(idOrPrefix, found)
}

func ambiguous(prefix string, found []session.SessionInfo) error {
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
	return fmt.Errorf("%w: %q starts more than one session id: %s; give more of the id", session.ErrAmbiguousID, prefix, strings.Join(names, ", "))
}

// Details returns the listing of session id with its message counts and its usage by
// model, priced by prices laid over the built-in ones.
func Details(m *session.Manager, id string, prices Prices) (SessionDetails, error) {
	st, err := readyToPrice(m, prices)
	if err != nil {
		return SessionDetails{}, err
	}
	return details(st, id, prices.WithBuiltin())
}

// details counts the messages of session id in st and sums their usage by model, priced
// by prices.
func details(st Store, id string, prices Prices) (SessionDetails, error) {
	info, err := stored(st, id)
	if err != nil {
		return SessionDetails{}, err
	}
	d, err := sessionUsage(st, info, prices)
	if err != nil {
		return d, err
	}
	d.reconcileUsage(prices)
	d.totalCost(prices)
	return d, nil
}

// Info returns the session's details, everything it recorded so far included.
func Info(s *session.Session, prices Prices) (SessionDetails, error) {
	if err := s.Sync(); err != nil {
		return SessionDetails{}, err
	}
	return Details(s.Manager(), s.ID(), prices)
}
