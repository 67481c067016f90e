// glue.h declares the C helpers of module.c that the Go side calls. They exist because Go
// cannot take the address of its own exported functions; each helper passes one of them to
// Node-API as a callback.
#ifndef SESSIONKEEP_GLUE_H
#define SESSIONKEEP_GLUE_H

#include <stdint.h>
#include <stdlib.h>
#include <node_api.h>

napi_status sk_create_function(napi_env env, const char* name, size_t name_len,
                               uintptr_t id, napi_value* result);
napi_status sk_create_external(napi_env env, uintptr_t handle, napi_value* result);
napi_status sk_create_tsfn(napi_env env, napi_value func, napi_value name, uintptr_t guard,
                           napi_threadsafe_function* result);
napi_status sk_call_tsfn(napi_threadsafe_function tsfn, uintptr_t handle);
napi_status sk_call_tsfn_again(napi_threadsafe_function tsfn, uintptr_t handle);
napi_status sk_add_cleanup_hook(napi_env env, uintptr_t handle);
napi_status sk_set_instance_data(napi_env env, uintptr_t handle);
uintptr_t sk_get_instance_data(napi_env env);
napi_status sk_get_external(napi_env env, napi_value value, uintptr_t* handle);

#endif
