package interop

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite"
	"github.com/sessionkeep/sessionkeep/session"
)

// gcPercent returns the collector's GOGC without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// withGCPercent runs fn with GOGC at p, then puts back what it was.
func withGCPercent(t *testing.T, p int, fn func()) {
	t.Helper()
	before := debug.SetGCPercent(p)
	defer debug.SetGCPercent(before)
	fn()
}

// TestImportRaisesGCPercentWhileItRuns: an import runs with importGCPercent and leaves the
// setting as it found it, whether it succeeds or fails.
func TestImportRaisesGCPercentWhileItRuns(t *testing.T) {
	withGCPercent(t, 100, func() {
		dir := t.TempDir()
		transcript := filepath.Join(dir, "t.jsonl")
		line := `{"type":"user","uuid":"u1","sessionId":"s1","timestamp":"2025-01-01T00:00:00Z","message":{"role":"user","content":"hi"}}` + "\n"
		if err := os.WriteFile(transcript, []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
		st, err := sqlite.Open(filepath.Join(dir, "store.db"))
		if err != nil {
			t.Fatal(err)
		}
		mgr := session.NewManager(st)
		defer mgr.Close()
		var during []int
		progress := func(Progress) { during = append(during, gcPercent()) }
		res, err := Import(mgr, transcript, ImportOptions{Progress: progress})
		if err != nil || res.Records != 1 {
			t.Fatalf("import: %+v, %v", res, err)
		}
		if len(during) == 0 || during[0] != importGCPercent {
			t.Errorf("GOGC during the import: %v, want %d", during, importGCPercent)
		}
		if got := gcPercent(); got != 100 {
			t.Errorf("GOGC after the import: %d, want 100", got)
		}
		mgr.Close()
		if _, err := Import(mgr, transcript, ImportOptions{}); err == nil {
			t.Error("an import into a closed store succeeded")
		}
		if got := gcPercent(); got != 100 {
			t.Errorf("GOGC after a failed import: %d, want 100", got)
		}
	})
}

// TestRoomForGCIsSharedByImportsRunningTogether: the setting goes back when the last
// import running ends, not the first.
func TestRoomForGCIsSharedByImportsRunningTogether(t *testing.T) {
	withGCPercent(t, 50, func() {
		first := RoomForGC()
		second := RoomForGC()
		first()
		if got := gcPercent(); got != importGCPercent {
			t.Errorf("GOGC with one import still running: %d, want %d", got, importGCPercent)
		}
		second()
		if got := gcPercent(); got != 50 {
			t.Errorf("GOGC after both: %d, want 50", got)
		}
	})
}

// TestRoomForGCNeverLowersGOGC: a collector set higher than an import's, or off, is left
// as it is.
func TestRoomForGCNeverLowersGOGC(t *testing.T) {
	for _, p := range []int{-1, importGCPercent * 2} {
		withGCPercent(t, p, func() {
			done := RoomForGC()
			if got := gcPercent(); got != p {
				t.Errorf("GOGC %d during an import: %d", p, got)
			}
			done()
			if got := gcPercent(); got != p {
				t.Errorf("GOGC %d after an import: %d", p, got)
			}
		})
	}
}
