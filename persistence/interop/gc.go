package interop

import (
	"runtime/debug"
	"sync"
)

// An import allocates about 15 times the bytes it reads (decoded lines, records, bodies,
// statements' arguments: 45 MB for the 3.1 MB of the real transcripts) while what it keeps
// alive stays a few MB. With the default GOGC of 100 the heap's goal is then the runtime's
// 4 MB floor, so the collector ran every few milliseconds, a dozen times per import, each
// time stopping every goroutine (the writer inside SQLite among them) and taking a quarter
// of the CPUs to mark: a fifth of the import's wall time (bench/README.md, issue 16
// round 5). While an import runs the collector is given room: importGCPercent, then the
// setting it had once the last import running ends.

// importGCPercent is the GOGC an import runs with: the heap may grow to 5 times what is
// live (a few tens of MB at the most for the real transcripts) before a collection. 800
// measured the same; 200 did not pay.
const importGCPercent = 400

// gcRoom counts the imports running (RoomForGC's callers), which share one raised setting.
var gcRoom struct {
	sync.Mutex
	imports int
	before  int  // the GOGC the first of them found
	raised  bool // it was lower than importGCPercent, so they raised it
}

// RoomForGC raises the collector's GOGC to importGCPercent for an import, unless it is off
// or higher already, and returns what puts the setting back once the last import running
// is done. Something else changing GOGC meanwhile is overwritten then. Import takes it; a
// caller takes it too to keep the room for what follows an import (committing its last
// records, indexing them for search), which allocates as it does.
func RoomForGC() (done func()) {
	gcRoom.Lock()
	defer gcRoom.Unlock()
	if gcRoom.imports == 0 {
		gcRoom.before = debug.SetGCPercent(importGCPercent)
		gcRoom.raised = gcRoom.before >= 0 && gcRoom.before < importGCPercent
		if !gcRoom.raised {
			debug.SetGCPercent(gcRoom.before)
		}
	}
	gcRoom.imports++
	return func() {
		gcRoom.Lock()
		defer gcRoom.Unlock()
		gcRoom.imports--
		if gcRoom.imports == 0 && gcRoom.raised {
			debug.SetGCPercent(gcRoom.before)
		}
	}
}

// streamMemoryLimit is the Go heap's soft limit while a file is streamed: importGCPercent
// lets the garbage of a stream that runs for minutes pile up to 5 times what is live (the
// uuids of a million records, a batch, SQLite's cache), and the limit makes the collector
// run before that passes the memory a streamed import is meant to stay under.
const streamMemoryLimit = 160 << 20

// capMemory lowers the Go runtime's soft memory limit to streamMemoryLimit, unless it is
// lower already, and returns what puts it back.
func capMemory() (done func()) {
	before := debug.SetMemoryLimit(-1)
	if before <= streamMemoryLimit {
		return func() {}
	}
	debug.SetMemoryLimit(streamMemoryLimit)
	return func() { debug.SetMemoryLimit(before) }
}
