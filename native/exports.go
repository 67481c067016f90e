package native

/*
#include "glue.h"
*/
import "C"

import "runtime/cgo"

// This file holds only the functions Node-API calls back into; module.c passes them on.

//export skModuleInit
func skModuleInit(env C.napi_env, exports C.napi_value) C.napi_value {
	return initModule(env, exports)
}

//export skInvoke
func skInvoke(env C.napi_env, info C.napi_callback_info) C.napi_value {
	return invoke(env, info)
}

//export skFinalizeHandle
func skFinalizeHandle(env C.napi_env, handle C.uintptr_t) {
	cgo.Handle(handle).Delete()
}

//export skDeliver
func skDeliver(env C.napi_env, jsCallback C.napi_value, handle C.uintptr_t) {
	deliver(env, jsCallback, cgo.Handle(handle))
}

//export skTsfnFinalized
func skTsfnFinalized(handle C.uintptr_t) {
	tsfnFinalized(cgo.Handle(handle))
}

//export skCleanupEnv
func skCleanupEnv(handle C.uintptr_t) {
	cgo.Handle(handle).Value().(*instance).cleanup()
}

//export skReleaseEnv
func skReleaseEnv(handle C.uintptr_t) {
	cgo.Handle(handle).Delete()
}
