// glibc-pins.h is forced into every C file of the glibc builds (-include, see
// build-addon.sh). glibc 2.32 and 2.34 moved these functions from libpthread.so.0 into
// libc.so.6 under new symbol versions, so a build on Debian 12 (glibc 2.36) would refuse to
// load on glibc older than 2.34. glibc keeps every old version, so binding the original ones
// lets one binary load on glibc 2.28 (RHEL 8, Ubuntu 20.04) and on every newer glibc; on an
// old glibc, Node has libpthread.so.0 loaded, and the addon also names it as needed.
#ifndef SESSIONKEEP_GLIBC_PINS_H
#define SESSIONKEEP_GLIBC_PINS_H

// cgo passes its C flags to the assembler files of runtime/cgo too; they have nothing to pin.
#ifndef __ASSEMBLER__

#if defined(__x86_64__)
#define SK_GLIBC_BASE "GLIBC_2.2.5"
#elif defined(__aarch64__)
#define SK_GLIBC_BASE "GLIBC_2.17"
#else
#error "glibc-pins.h: no base glibc version known for this architecture"
#endif

#define SK_PIN(name) __asm__(".symver " #name "," #name "@" SK_GLIBC_BASE)

SK_PIN(pthread_create);
SK_PIN(pthread_key_create);
SK_PIN(pthread_setspecific);
SK_PIN(pthread_getspecific);
SK_PIN(pthread_attr_getstack);
SK_PIN(pthread_attr_getstacksize);
SK_PIN(pthread_getattr_np);
SK_PIN(pthread_sigmask);
SK_PIN(pthread_detach);
SK_PIN(pthread_join);
SK_PIN(pthread_once);
SK_PIN(pthread_key_delete);
SK_PIN(dlopen);
SK_PIN(dlsym);
SK_PIN(dlerror);
SK_PIN(dlclose);

#undef SK_PIN
#endif // __ASSEMBLER__
#endif
