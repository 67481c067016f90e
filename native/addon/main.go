// Command addon is the sessionkeep Node-API addon: built with -buildmode=c-shared into
// build/Release/sessionkeep.node. Importing bridge registers every exported function;
// package native provides the module entry point Node calls.
package main

import (
	_ "github.com/sessionkeep/sessionkeep/bridge"
	_ "github.com/sessionkeep/sessionkeep/native"
)

func main() {}
