// module.c holds the C side of the binding: the module entry points that Node looks up by
// name, and helpers that hand Go's exported callbacks to Node-API as function pointers.
// Every call from a JS thread into Go is made IN_GO (signals.c says why).
#include "glue.h"
#include "signals.h"
#include "_cgo_export.h"

// IN_GO makes call, a call into Go, with the signals Go leaves to Node blocked on this thread.
#define IN_GO(call)              \
  do {                           \
    sk_signal_mask saved_mask;   \
    sk_enter_go(&saved_mask);    \
    call;                        \
    sk_leave_go(&saved_mask);    \
  } while (0)

NAPI_MODULE_EXPORT int32_t node_api_module_get_api_version_v1(void) {
  return NAPI_VERSION;
}

NAPI_MODULE_EXPORT napi_value napi_register_module_v1(napi_env env, napi_value exports) {
  sk_signals_loaded(env);
  napi_value result;
  IN_GO(result = skModuleInit(env, exports));
  return result;
}

static napi_value sk_invoke(napi_env env, napi_callback_info info) {
  napi_value result;
  IN_GO(result = skInvoke(env, info));
  return result;
}

napi_status sk_create_function(napi_env env, const char* name, size_t name_len,
                               uintptr_t id, napi_value* result) {
  return napi_create_function(env, name, name_len, sk_invoke, (void*)id, result);
}

static void sk_finalize_external(napi_env env, void* data, void* hint) {
  (void)hint;
  IN_GO(skFinalizeHandle(env, (uintptr_t)data));
}

napi_status sk_create_external(napi_env env, uintptr_t handle, napi_value* result) {
  return napi_create_external(env, (void*)handle, sk_finalize_external, NULL, result);
}

napi_status sk_get_external(napi_env env, napi_value value, uintptr_t* handle) {
  void* data = NULL;
  napi_status status = napi_get_value_external(env, value, &data);
  *handle = (uintptr_t)data;
  return status;
}

static void sk_call_js(napi_env env, napi_value js_cb, void* context, void* data) {
  (void)context;
  IN_GO(skDeliver(env, js_cb, (uintptr_t)data));
}

static void sk_tsfn_finalized(napi_env env, void* data, void* hint) {
  (void)env;
  (void)hint;
  IN_GO(skTsfnFinalized((uintptr_t)data));
}

// sk_create_tsfn creates a thread-safe function whose calls reach skDeliver with func (which
// may be NULL) on the JS thread.
napi_status sk_create_tsfn(napi_env env, napi_value func, napi_value name, uintptr_t guard,
                           napi_threadsafe_function* result) {
  return napi_create_threadsafe_function(env, func, NULL, name, 0, 1, (void*)guard,
                                         sk_tsfn_finalized, NULL, sk_call_js, result);
}

// sk_call_tsfn queues handle for the JS thread and gives up this thread's hold on tsfn.
// When the environment is closing the thread-safe function may be gone at any moment,
// so it is not touched again.
napi_status sk_call_tsfn(napi_threadsafe_function tsfn, uintptr_t handle) {
  napi_status status = napi_call_threadsafe_function(tsfn, (void*)handle, napi_tsfn_nonblocking);
  if (status == napi_ok) napi_release_threadsafe_function(tsfn, napi_tsfn_release);
  return status;
}

// sk_call_tsfn_again queues handle for the JS thread and keeps this thread's hold on tsfn,
// for a thread that will call it again.
napi_status sk_call_tsfn_again(napi_threadsafe_function tsfn, uintptr_t handle) {
  return napi_call_threadsafe_function(tsfn, (void*)handle, napi_tsfn_nonblocking);
}

static void sk_cleanup(void* arg) { IN_GO(skCleanupEnv((uintptr_t)arg)); }

napi_status sk_add_cleanup_hook(napi_env env, uintptr_t handle) {
  return napi_add_env_cleanup_hook(env, sk_cleanup, (void*)handle);
}

static void sk_finalize_instance(napi_env env, void* data, void* hint) {
  (void)env;
  (void)hint;
  IN_GO(skReleaseEnv((uintptr_t)data));
}

napi_status sk_set_instance_data(napi_env env, uintptr_t handle) {
  return napi_set_instance_data(env, (void*)handle, sk_finalize_instance, NULL);
}

uintptr_t sk_get_instance_data(napi_env env) {
  void* data = NULL;
  if (napi_get_instance_data(env, &data) != napi_ok) return 0;
  return (uintptr_t)data;
}
