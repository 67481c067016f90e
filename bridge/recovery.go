package bridge

import (
	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/persistence"
)

func init() {
	native.Register("recoveredSessions", recoveredSessions)
}

// recoveredSessions(store) -> JSON of the sessions opening the store marked interrupted
func recoveredSessions(c *native.Call) (native.Value, error) {
	h, err := storeArg(c)
	if err != nil {
		return native.Value{}, err
	}
	recovered := h.store.Recovered()
	if recovered == nil {
		recovered = []persistence.RecoveredSession{}
	}
	return jsonResult(c, recovered)
}
