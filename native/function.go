package native

/*
#include "glue.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Func is a Go function exported to JavaScript. It reads its arguments from the Call and
// returns the result value, or an error that becomes a thrown JavaScript error.
type Func func(c *Call) (Value, error)

type registered struct {
	name string
	fn   Func
}

// registry holds the exported functions; the index is the id Node-API hands back as the
// callback's data pointer. It is filled by Register before any environment loads the addon.
var registry []registered

// Register exports fn under name from every environment that loads the addon. It must be
// called from an init function or main, before Node loads the addon.
func Register(name string, fn Func) {
	registry = append(registry, registered{name: name, fn: fn})
}

// maxArgs is the most arguments any exported function reads.
const maxArgs = 8

// Call is one JavaScript call of an exported function: its arguments and the environment
// to create result values in. It is valid only during the call, on the JS thread.
type Call struct {
	Scope
	argc int
	argv [maxArgs]C.napi_value
}

// invoke is the trampoline every exported function goes through.
func invoke(env C.napi_env, info C.napi_callback_info) (result C.napi_value) {
	c := Call{Scope: Scope{env: env}, argc: maxArgs}
	var data unsafe.Pointer
	argc := C.size_t(maxArgs)
	if C.napi_get_cb_info(env, info, &argc, &c.argv[0], nil, &data) != C.napi_ok {
		return nil
	}
	c.argc = min(int(argc), maxArgs)
	fn := registry[uintptr(data)]
	defer func() {
		if r := recover(); r != nil {
			c.throw(fmt.Errorf("%w: %s panicked: %v", ErrInternal, fn.name, r))
			result = nil
		}
	}()
	v, err := fn.fn(&c)
	if err != nil {
		c.throw(err)
		return nil
	}
	return v.raw
}

// Arg returns argument i, undefined when the caller passed fewer.
func (c *Call) Arg(i int) Value {
	if i >= c.argc {
		return c.Undefined()
	}
	return Value{c.argv[i]}
}
