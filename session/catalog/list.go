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
	st, filter, err := listReady(m, filter)
	if err != nil {
		return nil, err
	}
	return st.ListSessions(filter)
}

// EncodeListValues encodes List's listing as JSON arrays cut as session.PartWriter cuts
// them (by size), each handed to emit, which returns the buffer for the next (see
// session.NewPartWriter); the first is encoded into buf (nil for a new buffer). The first
// part begins with the names of the fields filter wants, a JSON array of strings; each
// session is then as many items as there are names, its values of them in that order
// (session.AppendInfoValues). This is the one listing format that crosses to JavaScript,
// for sync and async listings alike. Each session is encoded as the store reads it: a
// listing of a thousand sessions builds no slice of SessionInfo only to encode it, and is
// never cut afterwards.
func EncodeListValues(m *session.Manager, filter ListFilter, size session.PartSize, buf []byte, emit func(part []byte) ([]byte, error)) error {
	st, filter, err := listReady(m, filter)
	if err != nil {
		return err
	}
	p := session.NewPartWriter(buf, size, emit)
	if err := p.Append(func(b []byte) []byte { return appendNames(b, filter.Want) }); err != nil {
		return err
	}
	var listed *session.SessionInfo
	encode := func(b []byte) []byte { return session.AppendInfoValues(b, listed, filter.Want) }
	err = st.EachListed(filter, func(info *session.SessionInfo) error {
		listed = info
		return p.Append(encode)
	})
	if err != nil {
		return err
	}
	return p.Finish()
}

// appendNames appends the JSON names of the fields of want to b, a JSON array.
func appendNames(b []byte, want session.InfoFields) []byte {
	b = append(b, '[')
	for i, name := range want.Names() {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(append(b, '"'), name...), '"') // names are plain ASCII
	}
	return append(b, ']')
}

// listReady checks filter and turns its Fields into Want, and returns the store of m once
// it is ready to be read (see ready).
func listReady(m *session.Manager, filter ListFilter) (Store, ListFilter, error) {
	if filter.Limit < 0 || filter.Offset < 0 {
		return nil, filter, fmt.Errorf("%w: limit and offset must not be negative", session.ErrInvalidArgument)
	}
	want, err := session.ParseInfoFields(filter.Fields)
	if err != nil {
		return nil, filter, err
	}
	filter.Want = want
	st, err := ready(m)
	return st, filter, err
}
