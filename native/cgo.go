package native

/*
#cgo CFLAGS: -I${SRCDIR}/../node_modules/node-api-headers/include -DNAPI_VERSION=8
#cgo linux LDFLAGS: -Wl,--unresolved-symbols=ignore-all
#cgo darwin LDFLAGS: -Wl,-undefined,dynamic_lookup
#include "glue.h"
*/
import "C"
