package session

// conversation writes the main conversation as the model is given it, from the stored
// records of a session in order: records on a sidechain and records that are not messages
// are left out, and a record that continues the message before it (Continues) adds its
// blocks to that message, whose fields are then the latest record's.
type conversation struct {
	buf    []byte
	count  int    // messages begun
	role   string // of the message open, "" when none is
	blocks bool   // the message open has blocks
	meta   []byte // the fields of the message open
}

// add writes m when it belongs to the conversation.
func (c *conversation) add(m *StoredMessage) {
	if !m.IsConversation() {
		return
	}
	if m.Continues && c.role == m.Role {
		c.buf = appendBlocks(c.buf, m, c.blocks)
		c.blocks = c.blocks || len(m.Blocks) > 0
		c.meta = append(c.meta[:0], m.Meta...)
		return
	}
	c.end()
	if c.count > 0 {
		c.buf = append(c.buf, ',')
	}
	c.count++
	c.buf = appendMessageStart(c.buf, m)
	c.role, c.blocks = m.Role, len(m.Blocks) > 0
	c.meta = append(c.meta[:0], m.Meta...)
}

// end closes the message open, if any.
func (c *conversation) end() {
	if c.role == "" {
		return
	}
	c.buf = appendMessageEnd(c.buf, c.meta)
	c.role = ""
}
