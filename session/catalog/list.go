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

// AppendList appends to buf List's listing as a JSON array of the fields filter names
// (see session.AppendInfo).
func AppendList(m *session.Manager, filter ListFilter, buf []byte) ([]byte, error) {
	var all []byte
	err := EncodeList(m, filter, session.Whole, buf, func(part []byte) ([]byte, error) {
		all = part
		return nil, nil
	})
	return all, err
}

// EncodeList encodes List's listing as AppendList does, cut into JSON arrays of whole
// sessions as session.PartWriter cuts them (by size), each handed to emit, which returns
// the buffer for the next (see session.NewPartWriter). The first is encoded into buf (nil
// for a new buffer). Each session is encoded as the store reads it: a listing of a thousand
// sessions builds no slice of SessionInfo only to encode it, and is never cut afterwards.
func EncodeList(m *session.Manager, filter ListFilter, size session.PartSize, buf []byte, emit func(part []byte) ([]byte, error)) error {
	st, filter, err := listReady(m, filter)
	if err != nil {
		return err
	}
	p := session.NewPartWriter(buf, size, emit)
	var listed *session.SessionInfo
	encode := func(b []byte) []byte { return session.AppendInfo(b, listed, filter.Want) }
	err = st.EachListed(filter, func(info *session.SessionInfo) error {
		listed = info
		return p.Append(encode)
	})
	if err != nil {
		return err
	}
	return p.Finish()
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
