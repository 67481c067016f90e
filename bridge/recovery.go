package bridge

import (
	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session"
)

// Crashes and damage: what opening the store recovered, and finding a damaged session.
func init() {
	native.Register("recoveredSessions", recoveredSessions)
	native.Register("verifySession", sessionCall((*session.Session).Verify))
}

// recoveredSessions(store) -> JSON of the sessions opening the store marked interrupted
func recoveredSessions(c *native.Call) (native.Value, error) {
	h, err := storeArg(c)
	if err != nil {
		return native.Value{}, err
	}
	return jsonResult(c, h.store.RecoveredSessions())
}
