package bridge

import (
	"sync/atomic"

	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session"
)

// The type tags of the handles JavaScript holds.
var (
	storeTag   = native.NewTag(0x5e551011_6b656570, 0x73746f7265000001)
	sessionTag = native.NewTag(0x5e551011_6b656570, 0x73657373696f6e02)
)

// storeHandle is an open store as JavaScript holds it.
type storeHandle struct {
	store    backend
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

// storeAndString decodes the arguments most store calls take: the store, then a string
// named name (an id, a path, a key).
func storeAndString(c *native.Call, name string) (*storeHandle, string, error) {
	h, err := storeArg(c)
	if err != nil {
		return nil, "", err
	}
	text, err := c.StringArg(1, name)
	return h, text, err
}

// sessionRef is one JavaScript Session object. Several can stand for one live session (it
// was opened twice); each is closed on its own, and the session closes with the last. A
// closed object lets go of the session, which JavaScript's collector may not reclaim for a
// long time (it sees a small object), so that a process opening one session after another
// keeps none of the closed ones' messages; it keeps the session's id and store, which
// unwatch still needs.
type sessionRef struct {
	s     atomic.Pointer[session.Session] // nil once closed
	id    string
	store session.Store
}

// newSessionRef returns the JavaScript object's hold on s.
func newSessionRef(s *session.Session) *sessionRef {
	r := &sessionRef{id: s.ID(), store: s.Store()}
	r.s.Store(s)
	return r
}

// close releases this object's hold on the session; closing twice is a no-op.
func (r *sessionRef) close() {
	if s := r.s.Swap(nil); s != nil {
		s.Close()
	}
}

func sessionRefArg(c *native.Call) (*sessionRef, error) {
	v, err := c.HandleArg(0, "session", sessionTag)
	if err != nil {
		return nil, err
	}
	return v.(*sessionRef), nil
}

// sessionArg returns the session behind argument 0, refusing an object already closed.
func sessionArg(c *native.Call) (*session.Session, error) {
	r, err := sessionRefArg(c)
	if err != nil {
		return nil, err
	}
	s := r.s.Load()
	if s == nil {
		return nil, session.ErrStoreClosed
	}
	return s, nil
}
