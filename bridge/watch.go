package bridge

import (
	"fmt"
	"strconv"

	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session"
)

// Following a session written by other processes (session.watch()): the store counts the
// commits to each watched session as it learns of them (PostgreSQL's NOTIFY; SQLite's
// data_version, persistence/sqlite/watch.go), and JavaScript compares counts on a timer that
// never keeps the process alive.
func init() {
	native.Register("sessionWatch", sessionWatch)
	native.Register("sessionWatchVersion", sessionWatchVersion)
	native.Register("sessionUnwatch", sessionUnwatch)
}

// watchable is a store that tells of commits: both backends.
type watchable interface {
	Watch(id string) (uint64, error)
	WatchVersion(id string) (uint64, error)
	Unwatch(id string)
}

// watchedStore returns the session's store as a watchable one and the session's id, or ErrUnsupported; a closed
// session is ErrStoreClosed unless closedToo.
func watchedStore(c *native.Call, closedToo bool) (watchable, string, error) {
	ref, err := sessionRefArg(c)
	if err != nil {
		return nil, "", err
	}
	if ref.s.Load() == nil && !closedToo {
		return nil, "", session.ErrStoreClosed
	}
	w, ok := ref.store.(watchable)
	if !ok {
		return nil, "", fmt.Errorf("%w: session.watch(): this store cannot tell of commits", session.ErrUnsupported)
	}
	return w, ref.id, nil
}

// sessionWatch(session) -> the session's commit count, as a string; starts following it.
func sessionWatch(c *native.Call) (native.Value, error) {
	w, id, err := watchedStore(c, false)
	if err != nil {
		return native.Value{}, err
	}
	v, err := w.Watch(id)
	if err != nil {
		return native.Value{}, err
	}
	return c.String(strconv.FormatUint(v, 10)), nil
}

// sessionWatchVersion(session) -> the session's commit count now.
func sessionWatchVersion(c *native.Call) (native.Value, error) {
	w, id, err := watchedStore(c, false)
	if err != nil {
		return native.Value{}, err
	}
	v, err := w.WatchVersion(id)
	if err != nil {
		return native.Value{}, err
	}
	return c.String(strconv.FormatUint(v, 10)), nil
}

// sessionUnwatch(session): ends one sessionWatch.
func sessionUnwatch(c *native.Call) (native.Value, error) {
	w, id, err := watchedStore(c, true)
	if err != nil {
		return native.Value{}, err
	}
	w.Unwatch(id)
	return c.Undefined(), nil
}
