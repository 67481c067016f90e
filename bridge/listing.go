package bridge

import (
	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// listSessions(store, optionsJSON) returns the listing as an ASCII JSON array of the
// fields asked for (see session.InfoFields).
func listSessions(c *native.Call) (native.Value, error) {
	h, filter, err := listArgs(c)
	if err != nil {
		return native.Value{}, err
	}
	b, err := listingJSON(h, filter)
	if err != nil {
		return native.Value{}, err
	}
	return c.StringFromASCII(b), nil
}

// listSessionsAsync(store, optionsJSON) is listSessions off the JS thread.
func listSessionsAsync(c *native.Call) (native.Value, error) {
	h, filter, err := listArgs(c)
	if err != nil {
		return native.Value{}, err
	}
	return c.Promise(func() (native.Settler, error) {
		b, err := listingJSON(h, filter)
		return func(s *native.Scope) (native.Value, error) { return s.StringFromASCII(b), nil }, err
	})
}

func listArgs(c *native.Call) (*storeHandle, catalog.ListFilter, error) {
	var filter catalog.ListFilter
	h, err := storeArg(c)
	if err == nil {
		err = decodeArg(c, 1, "options", &filter)
	}
	return h, filter, err
}

// listingJSON lists the sessions filter selects and encodes the fields it names.
func listingJSON(h *storeHandle, filter catalog.ListFilter) ([]byte, error) {
	list, err := catalog.List(h.sessions, filter)
	if err != nil {
		return nil, err
	}
	want, err := session.ParseInfoFields(filter.Fields) // List has accepted them
	if err != nil {
		return nil, err
	}
	buf := make([]byte, 0, 64+len(list)*48*bitsSet(want))
	buf = append(buf, '[')
	for i := range list {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = session.AppendInfo(buf, &list[i], want)
	}
	return append(buf, ']'), nil
}

// bitsSet counts the fields in f, to size the listing's buffer.
func bitsSet(f session.InfoFields) int {
	n := 0
	for ; f != 0; f &= f - 1 {
		n++
	}
	return n
}
