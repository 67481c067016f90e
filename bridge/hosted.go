package bridge

import (
	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/hosted"
)

// Hosted agents (seed 001): sessions addressed by workspace:channel:handle, pubsub
// checkpoints, the SDK's session id, manual history and the context an agent missed.
func init() {
	native.Register("sessionByKey", sessionByKey)
	native.Register("hostedState", hostedState)
	native.Register("sessionStatus", sessionStatus)
	native.Register("commitCheckpoint", commitCheckpoint)
	native.Register("updateSdkSession", updateSdkSession)
	native.Register("clearSdkSession", sessionCall((*session.Session).ClearSDKSession))
	native.Register("storeMessage", storeMessage)
	native.Register("getHistory", getHistory)
	native.Register("clearHistory", sessionCall(hosted.ClearHistory))
	native.Register("formatMissedContext", formatMissedContext)
	native.Register("workspaceStorePath", workspaceStorePath)
	native.Register("defaultStorePath", defaultStorePath)
}

// byKeyOptions are sessionByKey's options: create, and the new session's options.
type byKeyOptions struct {
	Create bool `json:"create"`
	session.CreateOptions
}

// sessionByKey(store, key, workspace, optionsJSON?) -> [session, id] | undefined
func sessionByKey(c *native.Call) (native.Value, error) {
	h, key, err := storeAndString(c, "key")
	if err != nil {
		return native.Value{}, err
	}
	workspace, _, err := c.OptStringArg(2, "workspace")
	if err != nil {
		return native.Value{}, err
	}
	var opts byKeyOptions
	if err := decodeArg(c, 3, "options", &opts); err != nil {
		return native.Value{}, err
	}
	if key, err = hosted.ParseKey(key, workspace); err != nil {
		return native.Value{}, err
	}
	s, err := h.sessions.ByKey(key, opts.Create, opts.CreateOptions)
	if err != nil || s == nil {
		return c.Undefined(), err
	}
	return sessionResult(c, s)
}

// sessionCall returns the exported function name(session) of a Session method.
func sessionCall(fn func(s *session.Session) error) native.Func {
	return func(c *native.Call) (native.Value, error) {
		s, err := sessionArg(c)
		if err != nil {
			return native.Value{}, err
		}
		return c.Undefined(), fn(s)
	}
}

// hostedState(session) -> JSON of {checkpoint?, sdkSessionId?}
func hostedState(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	st, err := s.Hosted()
	if err != nil {
		return native.Value{}, err
	}
	return jsonResult(c, st)
}

// sessionStatus(session) -> the stored status
func sessionStatus(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	status, err := hosted.Status(s)
	if err != nil {
		return native.Value{}, err
	}
	return c.String(status), nil
}

// commitCheckpoint(session, pubsubIdJSON)
func commitCheckpoint(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	var id int64
	if err := decodeArg(c, 1, "pubsubId", &id); err != nil {
		return native.Value{}, err
	}
	return c.Undefined(), s.CommitCheckpoint(id)
}

// updateSdkSession(session, id)
func updateSdkSession(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	id, err := c.StringArg(1, "sessionId")
	if err != nil {
		return native.Value{}, err
	}
	return c.Undefined(), s.UpdateSDKSession(id)
}

// storeMessage(session, role, content)
func storeMessage(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	role, err := c.StringArg(1, "role")
	if err != nil {
		return native.Value{}, err
	}
	content, err := c.StringArg(2, "content")
	if err != nil {
		return native.Value{}, err
	}
	return c.Undefined(), hosted.StoreMessage(s, role, content)
}

// getHistory(session, limitJSON?) -> JSON of HistoryEntry[]
func getHistory(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	var limit int
	if err := decodeArg(c, 1, "limit", &limit); err != nil {
		return native.Value{}, err
	}
	entries, err := hosted.History(s, limit)
	if err != nil {
		return native.Value{}, err
	}
	return jsonResult(c, entries)
}

// formatMissedContext(session, optionsJSON) -> JSON of MissedContext
func formatMissedContext(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	opts := struct {
		MaxChars int `json:"maxChars"`
	}{MaxChars: 8000}
	if err := decodeArg(c, 1, "options", &opts); err != nil {
		return native.Value{}, err
	}
	mc, err := hosted.FormatMissedContext(s, opts.MaxChars)
	if err != nil {
		return native.Value{}, err
	}
	return jsonResult(c, mc)
}

// workspaceStorePath(workspaceId, dir?) -> the path of the workspace's own store
func workspaceStorePath(c *native.Call) (native.Value, error) {
	id, err := c.StringArg(0, "workspaceId")
	if err != nil {
		return native.Value{}, err
	}
	dir, _, err := c.OptStringArg(1, "dir")
	if err != nil {
		return native.Value{}, err
	}
	path, err := sqlite.WorkspacePath(id, dir)
	if err != nil {
		return native.Value{}, err
	}
	return c.String(path), nil
}

// defaultStorePath() -> where openStore() opens a store when given no path
func defaultStorePath(c *native.Call) (native.Value, error) {
	path, err := sqlite.DefaultPath()
	if err != nil {
		return native.Value{}, err
	}
	return c.String(path), nil
}
