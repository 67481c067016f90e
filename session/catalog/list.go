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
	return encodeList(m, filter, session.AppendInfo, false, size, buf, emit)
}

// EncodeListValues is EncodeList with each session's values in place of its object (see
// session.AppendInfoValues), after the names of the fields they are the values of: the
// first part begins with them, a JSON array of strings. One session is as many items of a
// part as there are names.
func EncodeListValues(m *session.Manager, filter ListFilter, size session.PartSize, buf []byte, emit func(part []byte) ([]byte, error)) error {
	return encodeList(m, filter, session.AppendInfoValues, true, size, buf, emit)
}

// encodeList encodes the listing filter selects, each session by encodeInfo, after the
// names of the fields it wants when withNames.
func encodeList(m *session.Manager, filter ListFilter, encodeInfo func([]byte, *session.SessionInfo, session.InfoFields) []byte,
	withNames bool, size session.PartSize, buf []byte, emit func(part []byte) ([]byte, error)) error {
	st, filter, err := listReady(m, filter)
	if err != nil {
		return err
	}
	p := session.NewPartWriter(buf, size, emit)
	if withNames {
		if err := p.Append(func(b []byte) []byte { return appendNames(b, filter.Want) }); err != nil {
			return err
		}
	}
	var listed *session.SessionInfo
	encode := func(b []byte) []byte { return encodeInfo(b, listed, filter.Want) }
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
