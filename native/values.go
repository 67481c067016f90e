package native

/*
#include "glue.h"
*/
import "C"

import "unsafe"

// Value is a JavaScript value, valid only during the call or callback that produced it.
type Value struct{ raw C.napi_value }

// Scope creates and reads JavaScript values in one environment, on its JS thread.
type Scope struct{ env C.napi_env }

// Undefined returns undefined.
func (s *Scope) Undefined() Value {
	var v C.napi_value
	C.napi_get_undefined(s.env, &v)
	return Value{v}
}

// Null returns null.
func (s *Scope) Null() Value {
	var v C.napi_value
	C.napi_get_null(s.env, &v)
	return Value{v}
}

// Buffer returns a Node.js Buffer holding a copy of b: no Go memory is handed to JS.
func (s *Scope) Buffer(b []byte) Value {
	data := unsafe.SliceData(b)
	if len(b) == 0 {
		data = &noBytes[0]
	}
	var v C.napi_value
	C.napi_create_buffer_copy(s.env, C.size_t(len(b)), unsafe.Pointer(data), nil, &v)
	return Value{v}
}

// String returns a JavaScript string with the UTF-8 text str.
func (s *Scope) String(str string) Value {
	return s.utf8(unsafe.StringData(str), len(str))
}

// StringFromBytes returns a JavaScript string with the UTF-8 text b, without a Go copy:
// large JSON results cross this way and are parsed once by JSON.parse.
func (s *Scope) StringFromBytes(b []byte) Value {
	return s.utf8(unsafe.SliceData(b), len(b))
}

// noBytes stands in for the data of an empty string, which Go may give as nil and
// Node-API refuses.
var noBytes [1]byte

func (s *Scope) utf8(data *byte, n int) Value {
	if n == 0 {
		data = &noBytes[0]
	}
	var v C.napi_value
	C.napi_create_string_utf8(s.env, (*C.char)(unsafe.Pointer(data)), C.size_t(n), &v)
	return Value{v}
}

// Array returns a JavaScript array of items.
func (s *Scope) Array(items ...Value) Value {
	var v C.napi_value
	C.napi_create_array_with_length(s.env, C.size_t(len(items)), &v)
	for i, item := range items {
		C.napi_set_element(s.env, v, C.uint32_t(i), item.raw)
	}
	return Value{v}
}

// typeOf returns the JavaScript type of v.
func (s *Scope) typeOf(v Value) C.napi_valuetype {
	var t C.napi_valuetype
	if C.napi_typeof(s.env, v.raw, &t) != C.napi_ok {
		return C.napi_undefined
	}
	return t
}

// IsNullish reports whether v is undefined or null.
func (s *Scope) IsNullish(v Value) bool {
	t := s.typeOf(v)
	return t == C.napi_undefined || t == C.napi_null
}

// stringScratch is the size of the stack buffer strings are first read into; most strings
// that cross on the hot path (stream deltas) fit, so they cost one Node-API call.
const stringScratch = 512

// ReadString returns the text of the JavaScript string v; ok is false when v is no string.
func (s *Scope) ReadString(v Value) (str string, ok bool) {
	b, ok := s.ReadBytes(v)
	return unsafe.String(unsafe.SliceData(b), len(b)), ok
}

// ReadBytes returns the UTF-8 text of the JavaScript string v in a slice of its own (the
// caller's to keep; a JSON payload of 100 MB crosses once, not once more as []byte(str));
// ok is false when v is no string.
func (s *Scope) ReadBytes(v Value) (b []byte, ok bool) {
	var buf [stringScratch]byte
	var n C.size_t
	status := C.napi_get_value_string_utf8(s.env, v.raw, (*C.char)(unsafe.Pointer(&buf[0])), stringScratch, &n)
	if status != C.napi_ok {
		return nil, false
	}
	// Node truncates at a character boundary, so a string that did not fit may leave up to
	// three bytes of a multi-byte character unused besides the terminating NUL.
	if n < stringScratch-4 {
		return append([]byte{}, buf[:n]...), true
	}
	C.napi_get_value_string_utf8(s.env, v.raw, nil, 0, &n)
	big := make([]byte, n+1)
	C.napi_get_value_string_utf8(s.env, v.raw, (*C.char)(unsafe.Pointer(&big[0])), n+1, &n)
	return big[:n:n], true
}

// ReadBool returns the value of the JavaScript boolean v; ok is false when v is no boolean.
func (s *Scope) ReadBool(v Value) (b bool, ok bool) {
	var r C.bool
	if C.napi_get_value_bool(s.env, v.raw, &r) != C.napi_ok {
		return false, false
	}
	return bool(r), true
}

// ReadNumber returns the value of the JavaScript number v; ok is false when v is no number.
func (s *Scope) ReadNumber(v Value) (f float64, ok bool) {
	var r C.double
	if C.napi_get_value_double(s.env, v.raw, &r) != C.napi_ok {
		return 0, false
	}
	return float64(r), true
}

// StringFromASCII returns a JavaScript string with the ASCII text b: V8 copies the bytes
// into a one-byte string as they are, with no UTF-8 decoding. b must hold no byte over 0x7F
// (such a byte would read as Latin-1).
func (s *Scope) StringFromASCII(b []byte) Value {
	var v C.napi_value
	C.napi_create_string_latin1(s.env, (*C.char)(unsafe.Pointer(unsafe.SliceData(b))), C.size_t(len(b)), &v)
	return Value{v}
}

// StringsFromASCII returns a JavaScript array of the strings StringFromASCII makes of parts.
func (s *Scope) StringsFromASCII(parts [][]byte) Value {
	items := make([]Value, len(parts))
	for i, p := range parts {
		items[i] = s.StringFromASCII(p)
	}
	return s.Array(items...)
}

// ReadStrings16 returns the UTF-16 code units of each string of the JavaScript array v,
// copied as they are (a lone surrogate included) into buf, which is grown when it is too
// short and returned: the strings are slices of it, good until buf is used again. A caller
// that keeps buf between calls spares allocating (and zeroing) a large tool output's units
// each time. ok is false when v is no array of strings.
func (s *Scope) ReadStrings16(v Value, buf []uint16) (strs [][]uint16, grown []uint16, ok bool) {
	var isArray C.bool
	var n C.uint32_t
	if C.napi_is_array(s.env, v.raw, &isArray) != C.napi_ok || !bool(isArray) ||
		C.napi_get_array_length(s.env, v.raw, &n) != C.napi_ok {
		return nil, buf, false
	}
	items := make([]C.napi_value, n)
	lengths := make([]int, n)
	total := 0
	for i := range items {
		var length C.size_t
		if C.napi_get_element(s.env, v.raw, C.uint32_t(i), &items[i]) != C.napi_ok ||
			C.napi_get_value_string_utf16(s.env, items[i], nil, 0, &length) != C.napi_ok {
			return nil, buf, false
		}
		lengths[i] = int(length)
		total += int(length) + 1 // napi writes a terminating zero after each
	}
	if cap(buf) < total {
		buf = make([]uint16, total)
	}
	buf = buf[:cap(buf)]
	strs = make([][]uint16, n)
	at := 0
	for i, item := range items {
		var copied C.size_t
		size := lengths[i] + 1
		C.napi_get_value_string_utf16(s.env, item, (*C.char16_t)(unsafe.Pointer(&buf[at])), C.size_t(size), &copied)
		strs[i] = buf[at : at+int(copied) : at+int(copied)]
		at += size
	}
	return strs, buf, true
}
