package codex

import (
	"fmt"
	"io"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// Stream reads the Codex rollout r as Read does, into sink, without holding the file: a
// first reading learns the session (its session_meta, title, last model and first time), a
// second converts the lines and hands their records to sink about every
// transcript.BatchBytes. progress, unless nil, is called with the bytes the second reading
// has read. It returns the lines left out. The records are those Read makes, in the same
// order: a record is handed on once nothing after it can change it (an aborted turn marks
// the last answer before it, which is kept until a later message comes).
func Stream(r io.ReadSeeker, path string, sink transcript.Sink, progress func(int64)) ([]transcript.Skipped, error) {
	size, err := r.Seek(0, io.SeekEnd)
	if err == nil {
		_, err = r.Seek(0, io.SeekStart)
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	target, err := learnSession(r, path, transcript.NewRepeats(size))
	if err != nil {
		return nil, err
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("reading %s again: %w", path, err)
	}
	if err := sink.Begin(target.ImportTarget); err != nil {
		return nil, err
	}
	file := &transcript.File{Path: path}
	conv := target.conv
	fill := transcript.TimeFill{Prev: target.Info.CreatedAt}
	pending := 0
	hand := func(all bool) error {
		n := len(conv.recs)
		if !all {
			n = conv.lastMessage()
		}
		if n <= 0 {
			return nil
		}
		batch := conv.recs[:n]
		fill.Fill(batch)
		conv.recs = append([]importing.Record(nil), conv.recs[n:]...)
		pending = 0
		return sink.Add(batch)
	}
	err = eachLine(r, path, file, progress, func(n int, text []byte, l line) error {
		if err := conv.record(l, text); err != nil {
			file.Skipped = append(file.Skipped, transcript.Skipped{File: path, Line: n, Reason: err.Error()})
		}
		if pending += len(text); pending >= transcript.BatchBytes {
			return hand(false)
		}
		return nil
	})
	if err == nil {
		err = hand(true)
	}
	return file.Skipped, err
}

// lastMessage returns the index of the last record that is a message: an aborted turn
// may change it, and the next message looks back at it; records before it are final.
func (c *converter) lastMessage() int {
	for i := len(c.recs) - 1; i >= 0; i-- {
		if c.recs[i].Role != "" {
			return i
		}
	}
	return len(c.recs)
}

// learned is what the first reading of a rollout learns: the session, and a converter for
// the second reading that knows what Read's knows before its first record.
type learned struct {
	importing.ImportTarget
	conv *converter
}

// learnSession reads the rollout r once for the session's description: its session_meta
// and the model of its last turn_context from every line; its title and first time from
// the records converted until both are known (usually the first few). The last time is
// left zero: importing.Stream takes the last record's, which the second reading gives.
// repeats notes every line, for the second reading's converter.
func learnSession(r io.Reader, path string, repeats *transcript.Repeats) (learned, error) {
	meta := &converter{sessionID: sessionOf(path)}
	conv := &converter{sessionID: meta.sessionID, occurrences: transcript.Occurrences{}}
	var first time.Time
	err := eachLine(r, path, &transcript.File{Path: path}, nil, func(_ int, text []byte, l line) error {
		repeats.Note(text)
		meta.noteSession(l)
		if conv.title != "" && !first.IsZero() {
			if l.Type == "turn_context" {
				conv.turnContext(l.Payload)
			}
			return nil
		}
		if conv.record(l, text) == nil && first.IsZero() {
			first = conv.recs[len(conv.recs)-1].CreatedAt
		}
		return nil
	})
	if err != nil {
		return learned{}, err
	}
	if first.IsZero() {
		first = time.Now().UTC()
	}
	repeats.Done()
	next := &converter{sessionID: meta.sessionID, projectPath: meta.projectPath, cwd: meta.cwd, branch: meta.branch,
		occurrences: transcript.Occurrences{}, repeats: repeats}
	return learned{ImportTarget: importing.ImportTarget{Info: session.SessionInfo{
		ID: meta.sessionID, ProjectPath: meta.projectPath, Title: session.TitleFrom(conv.title), Provider: Provider,
		Model: conv.model, CreatedAt: first, Status: session.StatusActive,
	}}, conv: next}, nil
}
