package claudecode

import (
	"fmt"
	"io"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// Stream reads the Claude Code transcript r as Read does, into sink, without holding the
// file: a first reading learns the session (its id, first working folder, title, last
// model, times) and the subagents' calls, a second converts the lines and hands their
// records to sink about every transcript.BatchBytes, with the content of their file
// snapshots' backups read from the first of backups that holds each. progress, unless
// nil, is called with the bytes the second reading has read. It returns the subagents the
// transcript ran, by the tool calls that ran them, and the lines left out. The records are
// those Read makes, in the same order: an assistant message's line is handed on once the
// next message on its chain shows whether it continues it (linker.final).
func Stream(r io.ReadSeeker, path string, agentCalls map[string]string, sink transcript.Sink, progress func(int64), backups ...string) (map[string]string, []transcript.Skipped, error) {
	t := &Transcript{File: transcript.File{Path: path}}
	first, err := learnTranscript(r, path)
	if err != nil {
		return nil, nil, err
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, nil, fmt.Errorf("reading %s again: %w", path, err)
	}
	target := first.target(first.span.Span(time.Now().UTC()))
	if err := sink.Begin(target); err != nil {
		return nil, nil, err
	}
	conv := &converter{sessionID: first.sessionID, lastCwd: first.firstCwd, taskPrompts: first.taskPrompts, agentCalls: first.agentCalls, whole: true}
	occurrences := transcript.Occurrences{}
	lk := newLinker(first.lasts)
	fill := transcript.TimeFill{Prev: target.Info.CreatedAt}
	var recs []importing.Record
	base, pending := 0, 0
	hand := func(n int) error {
		batch := recs[:n]
		fill.Fill(batch)
		loadBackups(batch, target.Info.ID, backups)
		if err := sink.Add(batch); err != nil {
			return err
		}
		recs, conv.infos = append([]importing.Record(nil), recs[n:]...), append([]recordInfo(nil), conv.infos[n:]...)
		base, pending = base+n, 0
		return nil
	}
	err = t.eachLine(r, progress, func(l line) error {
		rec, err := conv.record(l, occurrences)
		if err != nil {
			t.skip(l.number, err.Error())
			return nil
		}
		recs = append(recs, rec)
		conv.linkRecord(lk, recs, conv.infos, base, base+len(recs)-1, agentCalls)
		if pending += len(l.raw); pending >= transcript.BatchBytes {
			return hand(lk.final(base, len(recs), heldBack))
		}
		return nil
	})
	if err == nil {
		err = hand(len(recs))
	}
	return conv.agentCalls, t.Skipped, err
}

// heldBack is how many records a streaming reading holds back at most for a chain whose
// last message may go on (linker.final).
const heldBack = 4096

// firstReading is what the first reading of a transcript learns.
type firstReading struct {
	*converter
	firstCwd string
	span     transcript.TimeSpan
	lasts    carrierSet // the records that keep their API response's usage
}

// learnTranscript reads the transcript r once, converting every line and keeping only
// what the session's description and the linking of sidechains need: the converter's
// state once every line is read, as Read's is when it links.
func learnTranscript(r io.Reader, path string) (firstReading, error) {
	t := &Transcript{File: transcript.File{Path: path}}
	conv := &converter{taskPrompts: map[string]string{}}
	first := firstReading{converter: conv}
	carriers := responseCarriers{}
	read := 0 // records converted: the place of the next in the second reading
	occurrences := transcript.Occurrences{}
	err := t.eachLine(r, nil, func(l line) error {
		if id, ok := stringField(l.fields, "sessionId"); ok && id != "" && conv.sessionID == "" {
			conv.sessionID = id
		}
		if cwd, ok := stringField(l.fields, "cwd"); ok && cwd != "" && first.firstCwd == "" {
			first.firstCwd = cwd
		}
		if rec, err := conv.record(l, occurrences); err == nil {
			first.span.Note(rec.CreatedAt)
			carriers.note(&conv.infos[len(conv.infos)-1], read)
			read++
		}
		conv.infos = conv.infos[:0]
		if len(occurrences) > 1<<16 { // the first reading's ids are not kept
			clear(occurrences)
		}
		return nil
	})
	if conv.sessionID == "" {
		conv.sessionID = sessionOf(nil, path)
	}
	first.lasts = carriers.lastOnes(read)
	return first, err
}
