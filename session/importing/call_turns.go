package importing

// callTurns maps the tool calls an import appended to the turns they were made in, for the
// sidechain records they ran (sidechainTurn). A file of gigabytes makes hundreds of
// thousands of calls, so only those of the latest batches are kept: an older call is in the
// store by then (Stream.Add syncs before each batch), where toolUseTurn finds it. A call the
// session does not hold is kept for good, with the turn it was first met in, so that every
// record it ran gets that turn however late it comes.
type callTurns struct {
	now, before map[string]int64
	unheld      map[string]int64
}

// callTurnsKept is how many calls the newer generation of callTurns gathers before a batch
// begins a generation of its own.
const callTurnsKept = 1 << 14

func newCallTurns() *callTurns {
	return &callTurns{now: map[string]int64{}, unheld: map[string]int64{}}
}

// get returns the turn of call, if it is kept.
func (ct *callTurns) get(call string) (int64, bool) {
	if turn, ok := ct.now[call]; ok {
		return turn, true
	}
	if turn, ok := ct.before[call]; ok {
		return turn, true
	}
	turn, ok := ct.unheld[call]
	return turn, ok
}

// put notes the turn of call, one the session holds.
func (ct *callTurns) put(call string, turn int64) { ct.now[call] = turn }

// putUnheld notes the turn given to the records of call, which the session does not hold.
func (ct *callTurns) putUnheld(call string, turn int64) { ct.unheld[call] = turn }

// beginBatch lets the older generation go once the newer holds callTurnsKept calls: the
// calls of a batch are never dropped while it is added, nor before it is committed.
func (ct *callTurns) beginBatch() {
	if len(ct.now) >= callTurnsKept {
		ct.before, ct.now = ct.now, make(map[string]int64, callTurnsKept)
	}
}
