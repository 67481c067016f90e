// signals.c keeps the signal handlers that Node and libuv install off Go's stacks.
//
// A handler installed without SA_ONSTACK runs on the stack of the thread it interrupts. On a
// thread running Go that is a goroutine's stack, often 8 KB, and the kernel's signal frame
// (about 3 KB with AVX-512 state) and the handler's own frames run past its low end into the
// memory below, another goroutine's stack: a return address overwritten, "unexpected return
// pc", a heap span in disorder. Go adds SA_ONSTACK to the handlers that exist when it starts,
// but libuv installs its handlers later and without the flag: SIGCHLD's at the first child
// process, SIGINT's or SIGTERM's when JavaScript listens with process.on. So here:
//   - the threads Go creates start with every signal blocked that Go lets a library block
//     (Go itself unblocks the few it must have: faults, SIGURG, SIGCHLD, SIGPROF);
//   - a JS thread blocks the same signals while it runs Go (sk_enter_go, sk_leave_go);
//   - SIGCHLD, which Go unblocks on its threads, gets a handler that runs on the signal
//     stack: the addon keeps a libuv watcher on SIGCHLD open, so that libuv installs its
//     handler now and not again, and adds SA_ONSTACK to that handler.
// A process-wide signal is then taken by a thread that is not running Go, and the handler
// runs on that thread's C stack. A process that Go code started (os/exec; none does) would
// begin with those signals blocked, as Go hands a child its thread's mask; libuv clears the
// mask of the processes it starts. Off Linux these functions do nothing.
#include "signals.h"

#if defined(__linux__)

#include <pthread.h>
#include <stdlib.h>

// The part of libuv's ABI used here; Node exports libuv to addons, but uv.h is not among
// the headers of node-api-headers. The functions are weak: a host that is not Node and has no
// libuv (test/94's napi-host) still loads the addon, with them NULL (has_libuv).
typedef struct uv_loop_s uv_loop_t;
typedef struct uv_handle_s uv_handle_t;
typedef struct uv_signal_s uv_signal_t;
__attribute__((weak)) size_t uv_handle_size(int type);
__attribute__((weak)) int uv_signal_init(uv_loop_t* loop, uv_signal_t* handle);
__attribute__((weak)) int uv_signal_start(uv_signal_t* handle,
                                          void (*cb)(uv_signal_t* handle, int signum),
                                          int signum);
__attribute__((weak)) void uv_unref(uv_handle_t* handle);
__attribute__((weak)) void uv_close(uv_handle_t* handle, void (*cb)(uv_handle_t* handle));

// has_libuv reports whether the host process exports the libuv functions above.
static int has_libuv(void) {
  return uv_handle_size && uv_signal_init && uv_signal_start && uv_unref && uv_close;
}
enum { SK_UV_SIGNAL = 16 };  // UV_SIGNAL of uv.h's uv_handle_type

// go_blocks holds every signal but those a fault raises on the thread that faulted, SIGURG,
// with which Go preempts a goroutine, and SIGPROF, with which Go's profiler (bench/profile.mjs)
// samples the thread it interrupts. Their handlers run on the signal stack. glibc and musl
// keep their own internal signals open whatever a mask says; SIGKILL and SIGSTOP cannot be
// blocked.
static sigset_t go_blocks;

// The loading thread's mask before the constructor below blocked go_blocks on it.
static sigset_t loader_mask;
static pthread_t loader;
static int loader_blocked;

// block_before_go runs when the addon is loaded, before the Go runtime starts: constructors
// with a priority run before the one without that starts Go. The thread Go starts on
// inherits the loading thread's mask, and Go gives that mask to every thread it creates.
__attribute__((constructor(101))) static void block_before_go(void) {
  static const int open[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGURG, SIGPROF};
  sigfillset(&go_blocks);
  for (size_t i = 0; i < sizeof open / sizeof open[0]; i++) sigdelset(&go_blocks, open[i]);
  if (pthread_sigmask(SIG_BLOCK, &go_blocks, &loader_mask) == 0) {
    loader = pthread_self();
    loader_blocked = 1;
  }
}

// keep_on_signal_stack adds SA_ONSTACK to the handler installed for sig, if there is one.
static void keep_on_signal_stack(int sig) {
  struct sigaction action;
  if (sigaction(sig, NULL, &action) != 0 || (action.sa_flags & SA_ONSTACK)) return;
  if (!(action.sa_flags & SA_SIGINFO) &&
      (action.sa_handler == SIG_DFL || action.sa_handler == SIG_IGN)) {
    return;
  }
  action.sa_flags |= SA_ONSTACK;
  sigaction(sig, &action, NULL);
}

// The SIGCHLD watcher, open on the loop of one environment at a time.
static pthread_mutex_t watcher_lock = PTHREAD_MUTEX_INITIALIZER;
static uv_signal_t* watcher;
static napi_async_cleanup_hook_handle watcher_hook;

static void ignore_sigchld(uv_signal_t* handle, int signum) {
  (void)handle;
  (void)signum;
}

static void free_handle(uv_handle_t* handle) { free(handle); }

static void watcher_closed(uv_handle_t* handle) {
  free_handle(handle);
  pthread_mutex_lock(&watcher_lock);
  napi_async_cleanup_hook_handle hook = watcher_hook;
  watcher = NULL;
  pthread_mutex_unlock(&watcher_lock);
  napi_remove_async_cleanup_hook(hook);
}

// close_watcher closes the watcher when its environment exits; the next environment to load
// the addon opens it again.
static void close_watcher(napi_async_cleanup_hook_handle hook, void* handle) {
  (void)hook;
  uv_close((uv_handle_t*)handle, watcher_closed);
}

// watch_sigchld opens the SIGCHLD watcher on env's loop unless one is open. It leaves the
// loop free to end (uv_unref).
static void watch_sigchld(napi_env env) {
  pthread_mutex_lock(&watcher_lock);
  uv_loop_t* loop = NULL;
  if (watcher == NULL && has_libuv() && napi_get_uv_event_loop(env, &loop) == napi_ok) {
    uv_signal_t* handle = calloc(1, uv_handle_size(SK_UV_SIGNAL));
    if (handle != NULL && uv_signal_init(loop, handle) == 0) {
      uv_signal_start(handle, ignore_sigchld, SIGCHLD);
      uv_unref((uv_handle_t*)handle);
      if (napi_add_async_cleanup_hook(env, close_watcher, handle, &watcher_hook) == napi_ok) {
        watcher = handle;
      } else {
        uv_close((uv_handle_t*)handle, free_handle);
      }
    } else {
      free(handle);
    }
  }
  pthread_mutex_unlock(&watcher_lock);
  keep_on_signal_stack(SIGCHLD);
}

void sk_signals_loaded(napi_env env) {
  if (loader_blocked && pthread_equal(loader, pthread_self())) {
    loader_blocked = 0;
    pthread_sigmask(SIG_SETMASK, &loader_mask, NULL);
  }
  watch_sigchld(env);
}

void sk_enter_go(sk_signal_mask* saved) { pthread_sigmask(SIG_BLOCK, &go_blocks, saved); }

void sk_leave_go(const sk_signal_mask* saved) { pthread_sigmask(SIG_SETMASK, saved, NULL); }

#else

void sk_signals_loaded(napi_env env) { (void)env; }

void sk_enter_go(sk_signal_mask* saved) { (void)saved; }

void sk_leave_go(const sk_signal_mask* saved) { (void)saved; }

#endif
