package catalog

import (
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
)

// ListFilter narrows ListSessions. Zero values mean no filter; Limit 0 means all.
// Archived sessions are left out unless IncludeArchived is set. Fields names the
// SessionInfo fields wanted (all when empty); List turns them into Want, which is
// what the store reads.
type ListFilter struct {
	ProjectPath     string             `json:"projectPath"`
	Limit           int                `json:"limit"`
	Offset          int                `json:"offset"`
	IncludeArchived bool               `json:"includeArchived"`
	Fields          []string           `json:"fields"`
	Want            session.InfoFields `json:"-"`
}

// List returns sessions newest first.
func List(m *session.Manager, filter ListFilter) ([]session.SessionInfo, error) {
	if filter.Limit < 0 || filter.Offset < 0 {
		return nil, fmt.Errorf("%w: limit and offset must not be negative", session.ErrInvalidArgument)
	}
	want, err := session.ParseInfoFields(filter.Fields)
	if err != nil {
		return nil, err
	}
	filter.Want = want
	st, err := ready(m)
	if err != nil {
		return nil, err
	}
	return st.ListSessions(filter)
}
