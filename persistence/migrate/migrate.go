package migrate

import (
	"errors"
	"fmt"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// ProgressInterval is the least time between two progress reports within one session's
// records; a report follows every session in any case.
const ProgressInterval = 50 * time.Millisecond

// Progress is how far a move has come.
type Progress struct {
	SessionID     string `json:"sessionId"` // the session being moved
	SessionsDone  int    `json:"sessionsDone"`
	SessionsTotal int    `json:"sessionsTotal"`
	Records       int    `json:"records"`  // records copied so far
	Existing      int    `json:"existing"` // records the target already held so far
}

// Result is what a move did.
type Result struct {
	SessionCount int       `json:"sessionCount"` // sessions the target now holds from the source
	Records      int       `json:"records"`      // records copied
	Existing     int       `json:"existing"`     // records the target already held, left as they were
	Skipped      []Skipped `json:"skipped"`      // sessions that could not be read from the source
}

// Skipped is a session left out of a move, and why.
type Skipped struct {
	SessionID string `json:"sessionId"`
	Reason    string `json:"reason"`
}

// Run copies every session of from (archived ones too) into to. A session the source cannot
// read (a corrupted one) is reported in Skipped and the others go on; a failure of the
// target ends the move with its error. progress, unless nil, is called after each session.
func Run(from, to *session.Manager, progress func(Progress)) (Result, error) {
	result := Result{Skipped: []Skipped{}}
	src, err := storeOf(from, "source")
	if err != nil {
		return result, err
	}
	dst, err := storeOf(to, "target")
	if err != nil {
		return result, err
	}
	list, err := catalog.List(from, catalog.ListFilter{IncludeArchived: true})
	if err != nil {
		return result, err
	}
	p := Progress{SessionsTotal: len(list)}
	for _, info := range list {
		p.SessionID = info.ID
		added, existing, err := moveSession(from, to, src, dst, info)
		var unreadable sourceError
		switch {
		case errors.As(err, &unreadable):
			result.Skipped = append(result.Skipped, Skipped{SessionID: info.ID, Reason: unreadable.Error()})
		case err != nil:
			return result, fmt.Errorf("moving session %s: %w", info.ID, err)
		default:
			result.SessionCount++
		}
		result.Records += added
		result.Existing += existing
		p.SessionsDone++
		p.Records, p.Existing = result.Records, result.Existing
		if progress != nil {
			progress(p)
		}
	}
	return result, dst.Flush()
}

// sourceError is a failure to read a session from the source: that session is skipped.
type sourceError struct{ err error }

func (e sourceError) Error() string { return e.err.Error() }
func (e sourceError) Unwrap() error { return e.err }

// moveSession copies one session: its records through an import (records the target
// holds already, by uuid, are left as they are), then the rest of what it holds.
func moveSession(from, to *session.Manager, src, dst store, info session.SessionInfo) (added, existing int, err error) {
	if info.Corruption != "" {
		return 0, 0, sourceError{fmt.Errorf("the session is corrupted: %s", info.Corruption)}
	}
	target, recs, err := readSession(from, info.ID)
	if err != nil {
		return 0, 0, sourceError{err}
	}
	state, err := src.LoadSession(info.ID)
	if err != nil {
		return 0, 0, sourceError{err}
	}
	if len(recs) == 0 {
		// An import of nothing creates nothing: an empty session is created here.
		s, _, err := to.OpenOrCreate(target.Info)
		if err != nil {
			return 0, 0, err
		}
		s.Close()
	} else {
		count, err := importing.Import(to, target, recs)
		if err != nil {
			return 0, 0, err
		}
		added, existing = count.Added, count.Existing
	}
	if err := copyRest(src, dst, state); err != nil {
		return added, existing, err
	}
	return added, existing, dst.Sync()
}
