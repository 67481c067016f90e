package bridge

import (
	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session/branches"
)

// Branches: the session's tree, rewinding its head, forking it.
func init() {
	native.Register("tree", tree)
	native.Register("treeAsync", treeAsync)
	native.Register("rewind", rewind)
	native.Register("fork", fork)
}

// tree(session) -> JSON of the Tree
func tree(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	b, err := branches.ReadTree(s)
	if err != nil {
		return native.Value{}, err
	}
	return c.StringFromBytes(b), nil
}

// treeAsync(session) -> Promise<JSON of the Tree>, read off the JS thread.
func treeAsync(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	return c.Promise(func() (native.Settler, error) {
		b, err := branches.ReadTree(s)
		return func(sc *native.Scope) (native.Value, error) { return sc.StringFromBytes(b), nil }, err
	})
}

// rewind(session, toUuid) -> Promise<void>. The session is taken at once, so calls made on
// it before the Promise settles wait for the rewind; the work runs off the JS thread.
func rewind(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	to, err := c.StringArg(1, "toUuid")
	if err != nil {
		return native.Value{}, err
	}
	run, err := branches.BeginRewind(s, to)
	if err != nil {
		return native.Value{}, err
	}
	v, err := c.Promise(func() (native.Settler, error) { return undefinedSettler, run() })
	if err != nil {
		run() // the session must be let go; the rewind is done here instead
	}
	return v, err
}

// fork(session, fromUuid?) -> Promise<[session, id]>. The head is read at once, so a fork
// with no fromUuid shares the history as it is when called.
func fork(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	from, _, err := c.OptStringArg(1, "fromUuid")
	if err != nil {
		return native.Value{}, err
	}
	if from == "" {
		if from, err = s.Head(); err != nil {
			return native.Value{}, err
		}
	}
	return c.Promise(func() (native.Settler, error) {
		f, err := branches.Fork(s, from)
		return func(sc *native.Scope) (native.Value, error) { return sessionValue(sc, f) }, err
	})
}
