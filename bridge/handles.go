package bridge

import (
	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/persistence"
	"github.com/sessionkeep/sessionkeep/session"
)

// The type tags of the handles JavaScript holds.
var (
	storeTag   = native.NewTag(0x5e551011_6b656570, 0x73746f7265000001)
	sessionTag = native.NewTag(0x5e551011_6b656570, 0x73657373696f6e02)
)

// storeHandle is an open store as JavaScript holds it.
type storeHandle struct {
	store    *persistence.Store
	sessions *session.Manager
}

// Close closes the store's sessions and then the store.
func (h *storeHandle) Close() error { return h.sessions.Close() }

func storeArg(c *native.Call) (*storeHandle, error) {
	v, err := c.HandleArg(0, "store", storeTag)
	if err != nil {
		return nil, err
	}
	return v.(*storeHandle), nil
}

func sessionArg(c *native.Call) (*session.Session, error) {
	v, err := c.HandleArg(0, "session", sessionTag)
	if err != nil {
		return nil, err
	}
	return v.(*session.Session), nil
}
