// Package native is sessionkeep's own thin binding of Node-API (node_api.h) for Go.
//
// It marshals values between JavaScript and Go and holds no domain logic. The addon is a
// Go c-shared library: Node dlopens it and calls napi_register_module_v1 (module.c), which
// hands the exports object to the functions registered with Register. Every JavaScript call
// enters Go through one trampoline (skInvoke), which decodes the arguments, recovers from
// panics and turns returned errors into thrown JavaScript errors, so a Go panic never
// crosses into C.
//
// Rules the binding keeps:
//   - Node-API is called only on the JS thread that owns the napi_env. Work that runs on
//     goroutines reports back through a thread-safe function (Call.Promise; Call.ProgressPromise
//     also calls a JS function with progress reports, in order, before it settles).
//   - No Go pointer is handed to JavaScript: objects cross as runtime/cgo.Handle values in
//     externals tagged with a per-kind type tag (Call.NewHandle, Call.Handle).
//   - Per-environment state (the error class, objects to close at exit) lives in instance
//     data, so the addon works in worker_threads, each thread its own environment.
//   - No signal handler that Node or libuv installs runs on a goroutine's stack, which it
//     would overrun (signals.c): every C function of module.c that calls into Go from a JS
//     thread does it IN_GO, which blocks those signals on the thread meanwhile.
//
// The napi_* symbols are resolved from the node process when the addon is loaded, hence the
// linker flags below that leave them undefined. Headers come from the npm package
// node-api-headers, and the addon targets Node-API version 8 (Node 18 and later).
package native
