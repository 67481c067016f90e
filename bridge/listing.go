package bridge

import (
	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// listSessions(store, optionsJSON) returns the listing as ASCII JSON arrays: the first
// begins with the names of the fields asked for (see session.InfoFields), then each
// session's values of them follow in order (catalog.EncodeListValues; ts/listing.ts makes
// the objects). The arrays are cut as they are encoded, as sync reads of messages are
// (partSize, under V8's large-object size): W4's 318 KB listing as one string took 0.25 ms
// to make right after a GC, in three 0.07 ms. They are encoded into kept buffers
// (encodeSync): W4's listing grew a new 64 KB buffer three times, 0.5 ms of its 3 ms.
func listSessions(c *native.Call) (native.Value, error) {
	h, filter, err := listArgs(c)
	if err != nil {
		return native.Value{}, err
	}
	return encodeSync(c, func(first []byte, emit func(part []byte) ([]byte, error)) error {
		return catalog.EncodeListValues(h.sessions, filter, partSize, first, emit)
	})
}

// listSessionsAsync(store, optionsJSON) is listSessions off the JS thread: the same parts,
// which ts/listing.ts decodes as it decodes a sync listing's.
func listSessionsAsync(c *native.Call) (native.Value, error) {
	h, filter, err := listArgs(c)
	if err != nil {
		return native.Value{}, err
	}
	return c.Promise(func() (native.Settler, error) {
		var parts [][]byte
		err := catalog.EncodeListValues(h.sessions, filter, partSize, nil, func(part []byte) ([]byte, error) {
			parts = append(parts, part)
			return nil, nil
		})
		return func(s *native.Scope) (native.Value, error) { return s.StringsFromASCII(parts), nil }, err
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
