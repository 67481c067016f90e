package native

/*
#include "glue.h"
*/
import "C"

import (
	"io"
	"runtime/cgo"
)

// Tag is the Node-API type tag of one kind of handle, so a store handle passed where a
// session is expected is refused instead of misread.
type Tag struct{ lower, upper uint64 }

// NewTag returns the tag for a kind of handle; the two numbers must be unique to the kind.
func NewTag(lower, upper uint64) Tag { return Tag{lower, upper} }

func (t Tag) c() C.napi_type_tag {
	return C.napi_type_tag{lower: C.uint64_t(t.lower), upper: C.uint64_t(t.upper)}
}

// NewHandle wraps obj for JavaScript: an external holding a cgo.Handle, tagged with tag.
// When JavaScript drops the external, the handle is deleted and obj can be collected. It
// is on Scope so that a Promise's Settler can hand out a handle too.
func (s *Scope) NewHandle(obj any, tag Tag) (Value, error) {
	h := cgo.NewHandle(obj)
	var v C.napi_value
	if err := s.check(C.sk_create_external(s.env, C.uintptr_t(h), &v)); err != nil {
		h.Delete()
		return Value{}, err
	}
	ct := tag.c()
	if err := s.check(C.napi_type_tag_object(s.env, v, &ct)); err != nil {
		return Value{}, err
	}
	return Value{v}, nil
}

// HandleArg returns the Go object behind argument i, which must be a handle tagged with tag.
func (c *Call) HandleArg(i int, name string, tag Tag) (any, error) {
	v := c.Arg(i)
	if c.typeOf(v) != C.napi_external {
		return nil, &TypeError{Arg: name, Want: "a sessionkeep handle"}
	}
	ct := tag.c()
	var match C.bool
	if C.napi_check_object_type_tag(c.env, v.raw, &ct, &match) != C.napi_ok || !bool(match) {
		return nil, &TypeError{Arg: name, Want: "a sessionkeep handle of the right kind"}
	}
	var h C.uintptr_t
	if err := c.check(C.sk_get_external(c.env, v.raw, &h)); err != nil {
		return nil, err
	}
	return cgo.Handle(h).Value(), nil
}

// CloseAtExit makes the environment close obj when it exits (process exit or the end of a
// worker thread), unless ForgetAtExit is called first.
func (c *Call) CloseAtExit(obj io.Closer) {
	instanceOf(c.env).keepForCleanup(obj)
}

// ForgetAtExit undoes CloseAtExit, for objects closed explicitly.
func (c *Call) ForgetAtExit(obj io.Closer) {
	instanceOf(c.env).forget(obj)
}
