package session

// chain is where a session's next record goes: the seq it gets, the record it follows on
// its chain (the main conversation or a subagent's) and its turn. It is the one place the
// rule is written, for messages begun live (begin), records written whole (appendWhole)
// and a head that moves (moveHead). Its Session's lock guards it.
type chain struct {
	nextSeq  int64
	lastUUID string            // the head: the last record of the main conversation
	lastTurn int64             // the head's turn
	talking  bool              // the main conversation has a message: the next prompt starts a turn
	sideLast map[string]string // the last message of each sidechain, by sidechain.key
	lastSide sidechain         // the chain of the last message begun live
}

// newChain continues from where a stored session's records end.
func newChain(st SessionState) chain {
	return chain{
		nextSeq:  st.NextSeq,
		lastUUID: st.LastUUID,
		lastTurn: st.LastTurn,
		talking:  st.LastUUID != "",
		sideLast: map[string]string{},
	}
}

// take returns the next seq and moves past it.
func (c *chain) take() int64 {
	seq := c.nextSeq
	c.nextSeq++
	return seq
}

// follow makes the main-chain message uuid the head and returns its turn: the head's,
// or the next one when the message starts a turn (a prompt, or the first message).
func (c *chain) follow(uuid string, startsTurn bool) int64 {
	turn := nextTurn(c.lastTurn, !c.talking, startsTurn)
	c.lastUUID, c.lastTurn, c.talking = uuid, turn, true
	return turn
}

// begin places a message begun live, of type typ on side, and returns its seq, parent
// and turn. Each chain links its own messages; a sidechain's messages stay in the turn
// that started them.
func (c *chain) begin(uuid, typ string, side sidechain) (seq int64, parent string, turn int64) {
	c.lastSide = side
	if side.on {
		parent = c.sideLast[side.key()]
		c.sideLast[side.key()] = uuid
		return c.take(), parent, c.lastTurn
	}
	parent = c.lastUUID
	return c.take(), parent, c.follow(uuid, typ == TypeUser)
}

// appendWhole places a record written whole: hdr as given but for its Seq, the next one,
// and its Turn on the main chain. A main-chain record becomes the head: a message there is
// numbered as a live one (a user record that does not continue the one before starts a
// turn), a record that is not a message (no Role) stays in the head's turn; a sidechain
// record keeps hdr.Turn.
func (c *chain) appendWhole(hdr *MessageHeader) {
	switch {
	case hdr.IsSidechain:
	case hdr.Role == "": // not a message: a link of the chain, in the turn it falls in
		c.lastUUID, hdr.Turn = hdr.UUID, c.lastTurn
	default:
		hdr.Turn = c.follow(hdr.UUID, hdr.Type == TypeUser && !hdr.Continues)
	}
	hdr.Seq = c.take()
}

// moveHead makes the main-chain record uuid, of turn, the head; a subagent that goes on
// starts again from its tool call.
func (c *chain) moveHead(uuid string, turn int64) {
	c.lastUUID, c.lastTurn, c.lastSide = uuid, turn, sidechain{}
	c.sideLast = map[string]string{}
}
