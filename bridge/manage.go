package bridge

import (
	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session"
)

// Managing sessions: rename, archive, delete, move a project, list in pages off the JS
// thread.
func init() {
	native.Register("renameSession", renameSession)
	native.Register("archiveSession", byID((*session.Manager).Archive))
	native.Register("unarchiveSession", byID((*session.Manager).Unarchive))
	native.Register("deleteSession", byID((*session.Manager).Delete))
	native.Register("moveProject", moveProject)
	native.Register("listSessionsAsync", listSessionsAsync)
}

// byID returns the exported function name(store, id) of a Manager method that takes an id.
func byID(fn func(m *session.Manager, id string) error) native.Func {
	return func(c *native.Call) (native.Value, error) {
		h, err := storeArg(c)
		if err != nil {
			return native.Value{}, err
		}
		id, err := c.StringArg(1, "id")
		if err != nil {
			return native.Value{}, err
		}
		return c.Undefined(), fn(h.sessions, id)
	}
}

// renameSession(store, id, title)
func renameSession(c *native.Call) (native.Value, error) {
	h, err := storeArg(c)
	if err != nil {
		return native.Value{}, err
	}
	id, err := c.StringArg(1, "id")
	if err != nil {
		return native.Value{}, err
	}
	title, err := c.StringArg(2, "title")
	if err != nil {
		return native.Value{}, err
	}
	return c.Undefined(), h.sessions.Rename(id, title)
}

// moveProject(store, from, to) -> JSON of the number of sessions moved
func moveProject(c *native.Call) (native.Value, error) {
	h, err := storeArg(c)
	if err != nil {
		return native.Value{}, err
	}
	from, err := c.StringArg(1, "oldPath")
	if err != nil {
		return native.Value{}, err
	}
	to, err := c.StringArg(2, "newPath")
	if err != nil {
		return native.Value{}, err
	}
	n, err := h.sessions.MoveProject(from, to)
	if err != nil {
		return native.Value{}, err
	}
	return jsonResult(c, n)
}

// listSessionsAsync(store, filterJSON?) -> Promise<JSON of SessionInfo[]>, read off the JS thread.
func listSessionsAsync(c *native.Call) (native.Value, error) {
	h, err := storeArg(c)
	if err != nil {
		return native.Value{}, err
	}
	var filter session.ListFilter
	if err := decodeArg(c, 1, "options", &filter); err != nil {
		return native.Value{}, err
	}
	return jsonPromise(c, func() (any, error) { return h.sessions.List(filter) })
}

// jsonPromise runs work off the JS thread and resolves with its result as JSON.
func jsonPromise(c *native.Call, work func() (any, error)) (native.Value, error) {
	return c.Promise(func() (native.Settler, error) {
		v, err := work()
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(v)
		return func(s *native.Scope) (native.Value, error) { return s.StringFromBytes(b), nil }, err
	})
}
