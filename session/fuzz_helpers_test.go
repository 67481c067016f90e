package session_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

// callerErrors are the errors a call may return for what its caller passed; any other
// error from fuzzed input is a bug.
var callerErrors = []error{session.ErrInvalidChunk, session.ErrUnknownToolUse, session.ErrInvalidMessage,
	session.ErrInvalidArgument, session.ErrSessionNotEmpty}

// isCallerError reports whether err is one of callerErrors.
func isCallerError(err error) bool {
	for _, e := range callerErrors {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// fuzzEnv is one store shared by every input of a fuzz worker: opening SQLite for each
// input would make the fuzzer a hundred times slower.
func fuzzEnv(f *testing.F) *sessiontest.Env {
	return sessiontest.OpenEnv(f, filepath.Join(f.TempDir(), "fuzz.db"))
}
