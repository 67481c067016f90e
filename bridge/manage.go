package bridge

import (
	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// Managing sessions: rename, archive, delete, move a project, list in pages off the JS
// thread.
func init() {
	native.Register("renameSession", renameSession)
	native.Register("archiveSession", byID(catalog.Archive))
	native.Register("unarchiveSession", byID(catalog.Unarchive))
	native.Register("deleteSession", byID(catalog.Delete))
	native.Register("deleteSessionAsync", deleteSessionAsync)
	native.Register("moveProject", moveProject)
	native.Register("moveProjectAsync", moveProjectAsync)
	native.Register("listSessionsAsync", listSessionsAsync)
}

// byID returns the exported function name(store, id) of a Manager method that takes an id.
func byID(fn func(m *session.Manager, id string) error) native.Func {
	return func(c *native.Call) (native.Value, error) {
		h, id, err := storeAndString(c, "id")
		if err != nil {
			return native.Value{}, err
		}
		return c.Undefined(), fn(h.sessions, id)
	}
}

// renameSession(store, id, title)
func renameSession(c *native.Call) (native.Value, error) {
	h, id, err := storeAndString(c, "id")
	if err != nil {
		return native.Value{}, err
	}
	title, err := c.StringArg(2, "title")
	if err != nil {
		return native.Value{}, err
	}
	return c.Undefined(), catalog.Rename(h.sessions, id, title)
}

// deleteSessionAsync(store, id) -> Promise<void>: deleting a large session deletes many
// rows and their search index entries, so it runs off the JS thread.
func deleteSessionAsync(c *native.Call) (native.Value, error) {
	h, id, err := storeAndString(c, "id")
	if err != nil {
		return native.Value{}, err
	}
	return c.Promise(func() (native.Settler, error) { return undefinedSettler, catalog.Delete(h.sessions, id) })
}

// moveProject(store, from, to) -> JSON of the number of sessions moved
func moveProject(c *native.Call) (native.Value, error) {
	h, from, to, err := moveArgs(c)
	if err != nil {
		return native.Value{}, err
	}
	n, err := catalog.MoveProject(h.sessions, from, to)
	if err != nil {
		return native.Value{}, err
	}
	return jsonResult(c, n)
}

// moveProjectAsync(store, from, to) -> Promise<JSON of the number moved>: the move reads
// every session's path, so it runs off the JS thread.
func moveProjectAsync(c *native.Call) (native.Value, error) {
	h, from, to, err := moveArgs(c)
	if err != nil {
		return native.Value{}, err
	}
	return jsonPromise(c, func() (any, error) { return catalog.MoveProject(h.sessions, from, to) })
}

func moveArgs(c *native.Call) (h *storeHandle, from, to string, err error) {
	if h, err = storeArg(c); err != nil {
		return
	}
	if from, err = c.StringArg(1, "oldPath"); err != nil {
		return
	}
	to, err = c.StringArg(2, "newPath")
	return
}
