package tokens

import (
	"sync"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// counterQuiet is how long no message must have ended before the counter starts counting:
// while a bulk restore or a fast stream ends messages back to back, tokenizing would take a
// core from the writer and the JS thread. A wait for the counts (a context build, Settle)
// cuts it short, so it delays no reader. It is longer than a fast stream's final flush and
// close: at 20 ms the counter started while W1's last commits were written and shared the
// cores with them, then was dropped at close; at 250 ms W1 took 15 % less CPU and 13 % less
// time (bench/README.md, round 3), and an agent's messages, seconds apart, are still
// counted a quarter second after each ends.
const counterQuiet = 250 * time.Millisecond

// counterBacklog is how many bytes of blocks the counter holds back while it waits for
// quiet: past it, it counts at once, and past twice it drops what ends (the builder counts
// a message without a count when it needs it, as after a close). A process that writes
// without pause (a host serving many sessions, W1 on repeat) never gives the counter a
// quiet quarter second, and tokenizing is slower than ingesting: an unbounded queue kept
// every message's blocks, 22 GB in 40 minutes of W1 on repeat. W1's 2,000 messages hold
// about 6 MB, so a single stream still waits for its end.
const counterBacklog = 16 << 20

// Counter counts the tokens of messages as they end, on its own goroutine: tokenizing a
// large tool output takes milliseconds per 10 KB, which must not land on the JS thread
// that ingests chunks. Jobs are counted in the order they were queued, so each session's
// messages are counted in seq order and the store can add up cumulative counts as they
// arrive. What is still queued at close is dropped; the builder counts it lazily later.
type Counter struct {
	store Store

	mu      sync.Mutex
	idle    *sync.Cond
	queue   []countJob
	queued  int                  // bytes of blocks in queue
	pending map[string]int       // jobs queued or running, by session
	added   uint64               // jobs queued since the counter started
	done    uint64               // jobs counted since the counter started, in queue order
	names   map[string]ToolNames // recent tool names, by session
	running bool
	closed  bool
	lastAdd time.Time // when the last job was queued
	// caughtUp: the store's writer has committed what was queued before the counter last
	// waited for it (catchUp), and no job was queued since.
	caughtUp bool
	waiters  int           // callers in wait
	hurry    chan struct{} // a wait or close: stop settling
}

// NewCounter returns a Counter that hands its counts to store; a Manager takes it as its
// session.TokenCounter.
func NewCounter(store Store) *Counter {
	c := &Counter{store: store, pending: map[string]int{}, names: map[string]ToolNames{}, hurry: make(chan struct{}, 1)}
	c.idle = sync.NewCond(&c.mu)
	return c
}

// Add queues a job, starting the goroutine when it is not running; with twice
// counterBacklog queued it drops the job.
func (c *Counter) Add(j session.EndedMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.queued >= 2*counterBacklog {
		return
	}
	job := countJob{EndedMessage: j, bytes: blockBytes(j)}
	c.queue = append(c.queue, job)
	c.queued += job.bytes
	c.pending[j.SessionID]++
	c.added++
	c.lastAdd = time.Now()
	c.caughtUp = false
	if !c.running {
		c.running = true
		go c.run()
	}
}

// run counts queued jobs until the queue is empty.
func (c *Counter) run() {
	c.mu.Lock()
	for len(c.queue) > 0 && !c.closed {
		c.settle()
		if len(c.queue) == 0 || c.closed {
			break
		}
		if c.catchUp() {
			continue // jobs may have been queued meanwhile: quiet again first
		}
		j := c.queue[0]
		c.queue[0] = countJob{} // the array outlives the job: let go of its blocks
		c.queue = c.queue[1:]
		c.queued -= j.bytes
		names := c.namesOf(j.SessionID)
		c.mu.Unlock()
		count := conversationCount(j.Role, j.Provider, j.Sidechain, j.Blocks, j.Usage, names)
		c.store.Apply(SetTokens{SessionID: j.SessionID, Seq: j.Seq, Count: count})
		c.mu.Lock()
		c.pending[j.SessionID]--
		c.done++
		c.idle.Broadcast()
	}
	c.running = false
	c.idle.Broadcast()
	c.mu.Unlock()
}

// settle waits, with c.mu held, until no job has been queued for counterQuiet, unless
// someone waits for counts, the counter closes, or the queue holds counterBacklog bytes.
func (c *Counter) settle() {
	t := time.NewTimer(0)
	defer t.Stop()
	for !c.closed && c.waiters == 0 && c.queued < counterBacklog {
		left := counterQuiet - time.Since(c.lastAdd)
		if left <= 0 {
			return
		}
		t.Reset(left)
		c.mu.Unlock()
		select {
		case <-t.C:
		case <-c.hurry:
		}
		c.mu.Lock()
	}
}

// catchUp waits, after a quiet counterQuiet and with c.mu held, until the store's writer
// has committed what was queued before (Store.Sync), once per quiet spell, and reports
// whether it waited. A writer still behind then (a bulk ingest on PostgreSQL, whose sync
// outlasts the quiet quarter second) would share the cores with the tokenizing, and each
// count it took would be a second version of a message row just inserted, all of whose
// indexes it rewrites (cum_tokens is indexed): in W1 under load, 120-310 counts, 100-220 ms
// of the client's CPU and 0.15-0.55 MB of WAL (bench/README.md, round 8). Someone waiting
// for the counts, or a backlog, does not wait for the writer. A sync that fails is the
// writer's to report; the counts are queued behind it as before.
func (c *Counter) catchUp() bool {
	if c.caughtUp || c.waiters > 0 || c.queued >= counterBacklog {
		return false
	}
	c.caughtUp = true
	c.mu.Unlock()
	_ = c.store.Sync() // a failure is the writer's to report
	c.mu.Lock()
	return true
}

// urge cuts a settle short.
func (c *Counter) urge() {
	select {
	case c.hurry <- struct{}{}:
	default:
	}
}

// namesOf returns the tool names the counter has seen in a session.
func (c *Counter) namesOf(sessionID string) ToolNames {
	n := c.names[sessionID]
	if n == nil {
		n = ToolNames{}
		c.names[sessionID] = n
	}
	return n
}

// Wait returns once every job of a session queued so far is counted and handed to the
// store, or the counter is closed. Jobs queued after the call are not waited for: jobs are
// counted in queue order, so once the jobs queued before the call are done, so are the
// session's. Waiting until the session had none pending starved a wait while its stream
// went on faster than the counting (a loaded machine).
func (c *Counter) Wait(sessionID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waiters++
	defer func() { c.waiters-- }()
	c.urge()
	before := c.added
	for c.pending[sessionID] > 0 && c.done < before && !c.closed {
		c.idle.Wait()
	}
}

// Forget drops what the counter keeps of a session that has shut down.
func (c *Counter) Forget(sessionID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending[sessionID] == 0 {
		delete(c.pending, sessionID)
		delete(c.names, sessionID)
	}
}

// Close drops what is queued and waits for the job in progress, so that nothing is
// applied to a store after it closes.
func (c *Counter) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	c.queue, c.queued = nil, 0
	c.urge()
	for c.running {
		c.idle.Wait()
	}
}

// countJob is a message waiting to be counted, with the size of its blocks (blockBytes),
// what the queue holds of it.
type countJob struct {
	session.EndedMessage
	bytes int
}

// blockBytes is the size of a job's blocks, what the queue holds of it.
func blockBytes(j session.EndedMessage) int {
	n := 0
	for _, b := range j.Blocks {
		n += len(b)
	}
	return n
}
