package interop

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/transcript"
)

// An import reads files side by side and stores them one by one, in the order they were
// found. Parsing (JSON decoding, conversion to records) is a fifth of an import's CPU and
// touches no store, so it runs on every CPU ahead of the writer; storing stays in order so
// that the sessions, turns and listing come out exactly as a sequential import makes them.

// aheadPerParser is how many parsed groups of files may wait to be stored, per parser: it
// bounds the memory held by records read ahead of a slower writer.
const aheadPerParser = 2

// parsedFile is one file as a parser read it: its records, or why it is left out.
type parsedFile struct {
	src    source
	file   *transcript.File
	more   []*transcript.File // the further sessions of a file that holds several (aider's runs)
	skip   string             // why the whole file is left out; "" when it was read
	stream string             // the format of a file the importing goroutine streams (stream.go), not parsed ahead
	read   atomic.Int64       // bytes the parser has read so far, for progress
	done   chan struct{}
	// panicked is what parsing panicked with, raised again where the file is stored: in
	// the importing goroutine, whose caller turns a panic into an error (a parser's own
	// goroutine would take the process down).
	panicked any
}

// unit is a transcript and its subagent transcripts, parsed by one parser in that order:
// a subagent transcript needs the tool calls its parent read.
type unit []*parsedFile

// parseAndStore parses files on run.opts.Parsers goroutines and stores each as its turn
// comes. A failure to store stops the parsers and is returned.
func (run *importRun) parseAndStore(files []source) error {
	units := make([]unit, len(files))
	for i, f := range files {
		units[i] = append(units[i], newParsedFile(f))
		for _, sub := range f.subagents {
			units[i] = append(units[i], newParsedFile(sub))
		}
	}
	parsers := run.opts.Parsers
	if parsers <= 0 {
		parsers = runtime.GOMAXPROCS(0)
	}
	todo := make(chan unit)
	ahead := make(chan struct{}, parsers*aheadPerParser) // a slot per unit handed out, not yet stored
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range parsers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range todo {
				run.parseUnit(u)
			}
		}()
	}
	go func() {
		defer close(todo)
		for _, u := range units {
			select {
			case ahead <- struct{}{}:
			case <-stop:
				return
			}
			select {
			case todo <- u:
			case <-stop:
				return
			}
		}
	}()
	defer wg.Wait()
	defer close(stop)
	for _, u := range units {
		for _, pf := range u {
			if err := run.file(pf); err != nil {
				return err
			}
		}
		<-ahead
	}
	return nil
}

func newParsedFile(src source) *parsedFile {
	return &parsedFile{src: src, done: make(chan struct{})}
}

// parseUnit parses a transcript, then its subagent transcripts with the calls it read.
func (run *importRun) parseUnit(u unit) {
	var calls map[string]string
	for i, pf := range u {
		got := run.parseRecovered(pf, calls)
		if i == 0 {
			calls = got
		}
		close(pf.done)
	}
}

// parseRecovered is parse, with a panic kept in pf.panicked.
func (run *importRun) parseRecovered(pf *parsedFile, agentCalls map[string]string) (calls map[string]string) {
	defer func() {
		if r := recover(); r != nil {
			pf.panicked = r
		}
	}()
	return run.parse(pf, agentCalls)
}

// await waits until pf is parsed, reporting the bytes its parser has read meanwhile, and
// raises the panic its parser met, if it met one.
func (run *importRun) await(pf *parsedFile) {
	tick := time.NewTicker(ProgressInterval)
	defer tick.Stop()
	for {
		select {
		case <-pf.done:
			if pf.panicked != nil {
				panic(pf.panicked)
			}
			return
		case <-tick.C:
			run.progress.BytesDone = run.bytesIn + min(pf.read.Load(), pf.src.size)
			run.report(false)
		}
	}
}
