package native

/*
#include "glue.h"
*/
import "C"

import "errors"

// ErrInternal marks a failure inside sessionkeep itself, such as a recovered panic.
var ErrInternal = errors.New("sessionkeep internal error")

// JSError is what a Go error becomes in JavaScript: an instance of the error class the JS
// layer registered (SessionError) with a stable code.
type JSError struct {
	Code    string
	Message string
}

// ErrorMapper turns a Go error into the code and message of the JavaScript error thrown
// for it. The bridge sets the one mapper; until then every error is INTERNAL.
type ErrorMapper func(error) JSError

var mapError ErrorMapper = func(err error) JSError { return JSError{Code: "INTERNAL", Message: err.Error()} }

// SetErrorMapper installs m as the mapper of every error thrown to JavaScript.
func SetErrorMapper(m ErrorMapper) { mapError = m }

// SetErrorClass makes argument i, a constructor taking (message, code), the class of
// every error this environment throws.
func (c *Call) SetErrorClass(i int) error {
	v := c.Arg(i)
	if c.typeOf(v) != C.napi_function {
		return &TypeError{Arg: "errorClass", Want: "a constructor"}
	}
	inst := instanceOf(c.env)
	if inst.errorClass != nil {
		C.napi_delete_reference(c.env, inst.errorClass)
	}
	return c.check(C.napi_create_reference(c.env, v.raw, 1, &inst.errorClass))
}

// throw throws err in JavaScript, unless a JavaScript exception is already pending.
func (s *Scope) throw(err error) {
	var pending C.bool
	if C.napi_is_exception_pending(s.env, &pending) == C.napi_ok && bool(pending) {
		return
	}
	C.napi_throw(s.env, s.errorValue(err).raw)
}

// errorValue returns the JavaScript error object for err.
func (s *Scope) errorValue(err error) Value {
	var te *TypeError
	if errors.As(err, &te) {
		return s.plainError(true, "ERR_INVALID_ARG_TYPE", te.Error())
	}
	e := mapError(err)
	if inst := instanceOf(s.env); inst != nil && inst.errorClass != nil {
		var ctor, obj C.napi_value
		args := [2]C.napi_value{s.String(e.Message).raw, s.String(e.Code).raw}
		if C.napi_get_reference_value(s.env, inst.errorClass, &ctor) == C.napi_ok &&
			C.napi_new_instance(s.env, ctor, 2, &args[0], &obj) == C.napi_ok {
			return Value{obj}
		}
	}
	return s.plainError(false, e.Code, e.Message)
}

// plainError makes an Error, or a TypeError, with Node-API's own constructors, which set
// .code.
func (s *Scope) plainError(typeError bool, code, message string) Value {
	var v C.napi_value
	if typeError {
		C.napi_create_type_error(s.env, s.String(code).raw, s.String(message).raw, &v)
	} else {
		C.napi_create_error(s.env, s.String(code).raw, s.String(message).raw, &v)
	}
	return Value{v}
}

// throwPlain throws an Error with a code before any error class can exist.
func throwPlain(env C.napi_env, code, message string) {
	s := Scope{env: env}
	C.napi_throw(env, s.plainError(false, code, message).raw)
}

// errNodeAPI is a Node-API call that failed without a pending JavaScript exception.
var errNodeAPI = errors.New("a Node-API call failed")

// check turns a failed Node-API status into an error.
func (s *Scope) check(status C.napi_status) error {
	if status == C.napi_ok {
		return nil
	}
	var info *C.napi_extended_error_info
	if C.napi_get_last_error_info(s.env, &info) == C.napi_ok && info != nil && info.error_message != nil {
		return errors.Join(ErrInternal, errors.New("Node-API: "+C.GoString(info.error_message)))
	}
	return errors.Join(ErrInternal, errNodeAPI)
}
