package bridge

import (
	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// listSessions(store, optionsJSON) returns the listing as ASCII JSON arrays of the fields
// asked for (see session.InfoFields), sessions in order, each array under V8's large-object
// size (see v8RegularObjectMax): W4's 318 KB listing as one string took 0.25 ms to make
// right after a GC, in three 0.07 ms. It is encoded into a kept buffer, as sync reads of
// messages are: W4's listing grew a new 64 KB buffer three times, 0.5 ms of its 3 ms.
func listSessions(c *native.Call) (native.Value, error) {
	h, filter, err := listArgs(c)
	if err != nil {
		return native.Value{}, err
	}
	kept := partBuffers.Get().(*[]byte)
	b, err := catalog.AppendList(h.sessions, filter, *kept)
	if err != nil {
		partBuffers.Put(kept)
		return native.Value{}, err
	}
	parts := catalog.SplitList(b, v8RegularObjectMax)
	v := c.StringsFromASCII(parts) // copies: the buffer is free again
	if b = parts[0]; cap(b) <= maxPooledPart {
		*kept = b[:0]
		partBuffers.Put(kept)
	}
	return v, nil
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
	return catalog.AppendList(h.sessions, filter, make([]byte, 0, 64<<10))
}
