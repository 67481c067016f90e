package bridge

import (
	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/redact"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

func init() {
	native.Register("openStore", openStore)
	native.Register("storeClose", storeClose)
	native.Register("storeFlush", storeFlush)
	native.Register("storeTakeWriteError", storeTakeWriteError)
	native.Register("createSession", createSession)
	native.Register("openSession", openSession)
	native.Register("listSessions", listSessions)
}

// openStore(path?: string, redactJSON?: string) -> [store, resolvedPath]: a postgres:// or
// postgresql:// URL (also from SESSIONKEEP_DB) opens a PostgreSQL store, anything else the
// SQLite file at that path.
func openStore(c *native.Call) (native.Value, error) {
	path, _, err := c.OptStringArg(0, "path")
	if err != nil {
		return native.Value{}, err
	}
	var redactOpts redact.Options
	if err := decodeArg(c, 1, "redact", &redactOpts); err != nil {
		return native.Value{}, err
	}
	redactor, err := redact.New(redactOpts)
	if err != nil {
		return native.Value{}, err
	}
	if path == "" {
		if path, err = sqlite.DefaultPath(); err != nil {
			return native.Value{}, err
		}
	}
	store, err := openBackend(path)
	if err != nil {
		return native.Value{}, err
	}
	h := &storeHandle{store: store, sessions: session.NewManager(store)}
	if redactor != nil {
		h.sessions.Redact(redactor)
	}
	h.sessions.CountTokens(tokens.NewCounter(store))
	v, err := c.NewHandle(h, storeTag)
	if err != nil {
		h.Close()
		return native.Value{}, err
	}
	c.CloseAtExit(h)
	return c.Array(v, c.String(path)), nil
}

// storeClose(store): flushes and closes; closing twice is a no-op.
func storeClose(c *native.Call) (native.Value, error) {
	h, err := storeArg(c)
	if err != nil {
		return native.Value{}, err
	}
	c.ForgetAtExit(h)
	return c.Undefined(), h.Close()
}

// storeFlush(store) -> Promise<void>: everything queued is durable.
func storeFlush(c *native.Call) (native.Value, error) {
	h, err := storeArg(c)
	if err != nil {
		return native.Value{}, err
	}
	return c.Promise(func() (native.Settler, error) {
		return undefinedSettler, h.store.Flush()
	})
}

// storeTakeWriteError(store) -> [code, message] | undefined: why queued writes are failing
// to commit (a full disk, a lock held past the bound), once per run of failures.
func storeTakeWriteError(c *native.Call) (native.Value, error) {
	h, err := storeArg(c)
	if err != nil {
		return native.Value{}, err
	}
	failed := h.store.TakeWriteError()
	if failed == nil {
		return c.Undefined(), nil
	}
	e := jsError(failed)
	return c.Array(c.String(e.Code), c.String(e.Message)), nil
}

func undefinedSettler(s *native.Scope) (native.Value, error) { return s.Undefined(), nil }

// createSession(store, optionsJSON) -> [session, id]
func createSession(c *native.Call) (native.Value, error) {
	h, err := storeArg(c)
	if err != nil {
		return native.Value{}, err
	}
	var opts session.CreateOptions
	if err := decodeArg(c, 1, "options", &opts); err != nil {
		return native.Value{}, err
	}
	s, err := h.sessions.Create(opts)
	if err != nil {
		return native.Value{}, err
	}
	return sessionResult(c, s)
}

// openSession(store, id) -> [session, id]
func openSession(c *native.Call) (native.Value, error) {
	h, id, err := storeAndString(c, "id")
	if err != nil {
		return native.Value{}, err
	}
	s, err := h.sessions.Open(id)
	if err != nil {
		return native.Value{}, err
	}
	return sessionResult(c, s)
}

func sessionResult(c *native.Call, s *session.Session) (native.Value, error) {
	return sessionValue(&c.Scope, s)
}

// sessionValue hands an open session to JavaScript as [session, id]; the session is
// closed when that fails.
func sessionValue(sc *native.Scope, s *session.Session) (native.Value, error) {
	v, err := sc.NewHandle(newSessionRef(s), sessionTag)
	if err != nil {
		s.Close()
		return native.Value{}, err
	}
	return sc.Array(v, sc.String(s.ID())), nil
}
