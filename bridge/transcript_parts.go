package bridge

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/persistence/claudecode"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

func init() {
	native.Register("appendTranscriptPart", appendTranscriptPart)
	native.Register("loadTranscriptPart", loadTranscriptPart)
	native.Register("transcriptParts", transcriptParts)
}

// partTarget names the session a part of a Claude Code transcript is kept in.
type partTarget struct {
	ID           string `json:"id"`
	Project      string `json:"project"`
	SDKSessionID string `json:"sdkSessionId"`
	Subpath      string `json:"subpath"`
}

// partAppend is what an append did: the records it added and those the session held, and
// when the session was last updated, in Unix milliseconds, after it.
type partAppend struct {
	importing.ImportCount
	UpdatedAt int64 `json:"updatedAt"`
}

// appendTranscriptPart(store, targetJSON, lines) -> Promise<JSON of a partAppend>: the
// Claude Code transcript lines, one JSON object a line, joined to session target.id as
// the part target.subpath ("" for the main transcript) as an import would join them: a
// line whose uuid the session holds is left out. The session is created when needed, in
// target.project, and is last updated now; an append to the main transcript records
// target.sdkSessionId. It settles once the records are durable; a line that is not a
// record rejects the whole batch with INVALID_ARGUMENT, and nothing is stored.
func appendTranscriptPart(c *native.Call) (native.Value, error) {
	h, err := storeArg(c)
	if err != nil {
		return native.Value{}, err
	}
	var target partTarget
	if err := decodeArg(c, 1, "target", &target); err != nil {
		return native.Value{}, err
	}
	lines, err := c.StringArg(2, "lines")
	if err != nil {
		return native.Value{}, err
	}
	if target.ID == "" {
		return native.Value{}, fmt.Errorf("%w: the session id is empty", session.ErrInvalidArgument)
	}
	return c.Promise(func() (native.Settler, error) {
		count, err := appendPart(h, target, lines)
		return jsonSettler(count, err)
	})
}

func appendPart(h *storeHandle, target partTarget, lines string) (partAppend, error) {
	t, err := claudecode.ReadPart(bytes.NewReader([]byte(lines)), target.SDKSessionID+".jsonl", target.Subpath, nil)
	if err != nil {
		return partAppend{}, err
	}
	if len(t.Skipped) > 0 {
		s := t.Skipped[0]
		return partAppend{}, fmt.Errorf("%w: entry %d is not a transcript line: %s", session.ErrInvalidArgument, s.Line, s.Reason)
	}
	t.Target.Info.ID, t.Target.Info.ProjectPath = target.ID, target.Project
	t.Target.Info.UpdatedAt = time.Now().UTC() // when it was stored, the clock of listSessions' mtime
	var out partAppend
	if len(t.Records) > 0 {
		if out.ImportCount, err = importing.Import(h.sessions, t.Target, t.Records); err != nil {
			return out, err
		}
	}
	if target.Subpath == "" && target.SDKSessionID != "" {
		if err := recordSDKSession(h, t.Target.Info, target.SDKSessionID); err != nil {
			return out, err
		}
	}
	if err := h.store.Sync(); err != nil {
		return out, err
	}
	state, err := h.store.LoadSession(target.ID)
	out.UpdatedAt = state.Info.UpdatedAt.UnixMilli()
	return out, err
}

// recordSDKSession records the SDK's session id on the session, unless it holds it already.
func recordSDKSession(h *storeHandle, info session.SessionInfo, id string) error {
	s, _, err := h.sessions.OpenOrCreate(info)
	if err != nil {
		return err
	}
	defer s.Close()
	state, err := s.Hosted()
	if err != nil || state.SDKSessionID == id {
		return err
	}
	return s.UpdateSDKSession(id)
}

// loadTranscriptPart(store, id, subpath) -> Promise<string | null>: the lines of the part
// subpath of session id, as appendTranscriptPart stored them, in order; null when the
// session or the part holds none.
func loadTranscriptPart(c *native.Call) (native.Value, error) {
	h, id, err := storeAndString(c, "id")
	if err != nil {
		return native.Value{}, err
	}
	subpath, err := c.StringArg(2, "subpath")
	if err != nil {
		return native.Value{}, err
	}
	return c.Promise(func() (native.Settler, error) {
		var buf bytes.Buffer
		write := claudecode.WritePart(subpath)
		err := h.sessions.Export(id, func(st session.SessionState, scan session.Scan) error { return write(&buf, st, scan) })
		if errors.Is(err, session.ErrSessionNotFound) || (err == nil && buf.Len() == 0) {
			return func(s *native.Scope) (native.Value, error) { return s.Null(), nil }, nil
		}
		if err != nil {
			return nil, err
		}
		return func(s *native.Scope) (native.Value, error) { return s.StringFromBytes(buf.Bytes()), nil }, nil
	})
}

// transcriptParts(store, id) -> Promise<JSON string[]>: the subpaths of the parts session
// id holds besides its main transcript; [] for a session that does not exist.
func transcriptParts(c *native.Call) (native.Value, error) {
	h, id, err := storeAndString(c, "id")
	if err != nil {
		return native.Value{}, err
	}
	return c.Promise(func() (native.Settler, error) {
		var parts []string
		err := h.sessions.Export(id, func(_ session.SessionState, scan session.Scan) (err error) {
			parts, err = claudecode.Parts(scan)
			return err
		})
		if errors.Is(err, session.ErrSessionNotFound) {
			parts, err = []string{}, nil
		}
		return jsonSettler(parts, err)
	})
}
