// signals.h declares signals.c: how the addon keeps the signal handlers Node installs off
// Go's stacks.
#ifndef SK_SIGNALS_H
#define SK_SIGNALS_H

#include <node_api.h>

#if defined(__linux__)
#include <signal.h>
typedef sigset_t sk_signal_mask;
#else
typedef int sk_signal_mask;
#endif

// sk_signals_loaded runs first when an environment loads the addon: it gives the loading
// thread back the signal mask it had before the addon was loaded, and makes SIGCHLD's
// handler run on the signal stack.
void sk_signals_loaded(napi_env env);

// sk_enter_go blocks, on the calling JS thread, the signals Go lets a library block, and
// saves the mask that sk_leave_go restores. A JS thread calls it on its way into Go.
void sk_enter_go(sk_signal_mask* saved);

// sk_leave_go restores the mask sk_enter_go saved.
void sk_leave_go(const sk_signal_mask* saved);

#endif
