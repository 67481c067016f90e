package interop

import (
	"os"

	"github.com/sessionkeep/sessionkeep/persistence/claudecode"
	"github.com/sessionkeep/sessionkeep/persistence/codex"
	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// A Claude Code transcript or a Codex rollout of StreamAbove bytes or more is not parsed
// ahead by a parser: the importing goroutine streams it (claudecode.Stream, codex.Stream),
// storing its records about every transcript.BatchBytes as it reads, so that what the
// import holds does not grow with the file. Smaller files, and a transcript whose subagent
// transcripts sit beside it (they need the calls it ran before they are read), are read
// whole, side by side, which is faster.

// StreamAbove is the size from which a file is streamed (a variable for tests).
var StreamAbove int64 = 8 << 20

// streams reports whether the file pf, of format, is streamed rather than parsed ahead.
func streams(pf *parsedFile, format string, agentCalls map[string]string) bool {
	return pf.src.size >= StreamAbove && len(pf.src.subagents) == 0 && agentCalls == nil &&
		(format == FormatCodex || format == FormatClaudeCode || format == "")
}

// storeSink stores the batches a streaming reader hands on into its session, which it
// opens (or creates) with the first record: a file with none makes no session, as when it
// is read whole.
type storeSink struct {
	run    *importRun
	target importing.ImportTarget
	in     *importing.Stream
	err    error // the store's failure, which stops the import
}

func (s *storeSink) Begin(target importing.ImportTarget) error {
	s.target = target
	return nil
}

func (s *storeSink) Add(recs []importing.Record) error {
	if s.in == nil && len(recs) > 0 {
		if s.in, s.err = importing.Begin(s.run.mgr, s.target); s.err != nil {
			return s.err
		}
	}
	if s.in == nil {
		return nil
	}
	if s.err = s.in.Add(recs); s.err != nil {
		return s.err
	}
	count := s.in.Count()
	s.run.progress.Records, s.run.progress.Existing = s.run.result.Records+count.Added, s.run.result.Existing+count.Existing
	s.run.report(false)
	return nil
}

// streamFile streams the file pf into the store. A file that cannot be read is left out,
// as when it is parsed ahead (what was stored of it before stays); a failure to store
// stops the import.
func (run *importRun) streamFile(pf *parsedFile) error {
	f, err := os.Open(pf.src.path)
	if err != nil {
		run.skipFile(pf.src.path, err.Error())
		return nil
	}
	defer f.Close()
	defer capMemory()()
	sink := &storeSink{run: run}
	onBytes := func(n int64) {
		run.progress.BytesDone = run.bytesIn + min(n, pf.src.size)
		run.report(false)
	}
	var skipped []transcript.Skipped
	if pf.stream == FormatCodex {
		skipped, err = codex.Stream(f, pf.src.path, sink, onBytes)
	} else {
		_, skipped, err = claudecode.Stream(f, pf.src.path, nil, sink, onBytes, run.opts.FileHistoryDir, claudecode.FileHistoryDir(pf.src.path))
	}
	if sink.in != nil {
		count, closeErr := sink.in.Close()
		run.counted(sink.in.ID(), count)
		if sink.err == nil {
			sink.err = closeErr
		}
	}
	if sink.err != nil {
		return sink.err
	}
	run.result.Skipped = append(run.result.Skipped, skipped...)
	run.progress.Skipped += len(skipped)
	if err != nil {
		run.skipFile(pf.src.path, err.Error())
	}
	return nil
}
