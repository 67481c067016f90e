package bridge

import (
	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// Finding sessions to resume: --continue, --resume <id|prefix>, and what a session shows
// of itself.
func init() {
	native.Register("latestSession", latestSession)
	native.Register("findSession", findSession)
	native.Register("sessionDetails", sessionDetails)
	native.Register("sessionDetailsAsync", sessionDetailsAsync)
	native.Register("resolveSession", resolveSession)
}

// latestSession(store, projectPath) -> [session, id] | undefined
func latestSession(c *native.Call) (native.Value, error) {
	h, project, err := storeAndString(c, "projectPath")
	if err != nil {
		return native.Value{}, err
	}
	s, err := catalog.Latest(h.sessions, project)
	if err != nil || s == nil {
		return c.Undefined(), err
	}
	return sessionResult(c, s)
}

// findSession(store, idOrPrefix) -> [session, id]
func findSession(c *native.Call) (native.Value, error) {
	h, id, err := storeAndString(c, "idOrPrefix")
	if err != nil {
		return native.Value{}, err
	}
	s, err := catalog.Find(h.sessions, id)
	if err != nil {
		return native.Value{}, err
	}
	return sessionResult(c, s)
}

// pricedOptions are the options of calls that can price token usage.
type pricedOptions struct {
	Prices catalog.Prices `json:"prices"`
}

// sessionAndPrices decodes the arguments of sessionDetails and sessionDetailsAsync.
func sessionAndPrices(c *native.Call) (*session.Session, catalog.Prices, error) {
	s, err := sessionArg(c)
	if err != nil {
		return nil, nil, err
	}
	var opts pricedOptions
	err = decodeArg(c, 1, "options", &opts)
	return s, opts.Prices, err
}

// sessionDetails(session, optionsJSON?) -> JSON of SessionDetails
func sessionDetails(c *native.Call) (native.Value, error) {
	s, prices, err := sessionAndPrices(c)
	if err != nil {
		return native.Value{}, err
	}
	d, err := catalog.Info(s, prices)
	if err != nil {
		return native.Value{}, err
	}
	return jsonResult(c, d)
}

// resolveSession(store, idOrPrefix) -> JSON of the SessionInfo, without opening the session
func resolveSession(c *native.Call) (native.Value, error) {
	h, id, err := storeAndString(c, "idOrPrefix")
	if err != nil {
		return native.Value{}, err
	}
	info, err := catalog.Resolve(h.sessions, id)
	if err != nil {
		return native.Value{}, err
	}
	return jsonResult(c, info)
}

// sessionDetailsAsync(session, optionsJSON?) -> Promise<JSON of SessionDetails>, read off
// the JS thread: the counts and usage take a pass over the session's messages.
func sessionDetailsAsync(c *native.Call) (native.Value, error) {
	s, prices, err := sessionAndPrices(c)
	if err != nil {
		return native.Value{}, err
	}
	return jsonPromise(c, func() (any, error) { return catalog.Info(s, prices) })
}
