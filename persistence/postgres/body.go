package postgres

import (
	"bytes"
	"strings"

	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/session"
)

// A message that has ended whole is stored as its body and layout, in the format and stored
// form of persistence/msgbody, which the SQLite backend shares: both stores hand a restore
// the same bytes. The meta and extra columns keep the whole fields beside the body (readers
// and SQL such as ScanLinks' read them there).

// encodeBody encodes m, a message whose blocks are all complete, as its stored body and
// layout (msgbody.Builder, imported as an import's records are), in storage of their own: a
// queued statement holds them until the batch is sent.
func encodeBody(bb *msgbody.Builder, m *session.StoredMessage, imported bool) (body, layout []byte) {
	stored, layout, _ := bb.Build(m, imported)
	return bytes.Clone(stored), layout
}

// bodyBlocks appends to blocks the JSON of each block of message seq's stored body, whose
// layout is layout, and returns the body unpacked (the blocks are slices of it) and where
// its message object begins. A body or layout that cannot be read is
// session.ErrSessionCorrupt.
func bodyBlocks(stored, layout []byte, blocks [][]byte, seq int64) (body []byte, messageAt int, _ [][]byte, err error) {
	body, err = msgbody.Unpacked(nil, stored, seq)
	if err != nil {
		return nil, 0, blocks, err
	}
	l, err := msgbody.DecodeLayout(layout, len(body), nil)
	if err == nil {
		blocks, err = msgbody.BlocksOf(body, l, blocks)
	}
	if err != nil {
		return nil, 0, blocks, msgbody.Unreadable(seq)
	}
	return body, l.MessageAt, blocks, nil
}

// blockTextSeparator ends the search text of one block of a message and begins the next's:
// a snippet is cut from the block that matches best (search.go). Block text never holds it
// (messageSearchText makes it a space).
const blockTextSeparator = "\x1e"

// messageSearchText is the text search reads of a message's blocks, separated by
// blockTextSeparator; NULL (nil) when none has any.
func messageSearchText(blocks [][]byte) any {
	var texts []string
	for _, block := range blocks {
		if text, ok := searchText(block); ok {
			texts = append(texts, strings.ReplaceAll(text, blockTextSeparator, " "))
		}
	}
	if len(texts) == 0 {
		return nil
	}
	return strings.Join(texts, blockTextSeparator)
}

// completeBlocks returns the blocks of b that are complete.
func completeBlocks(b *msgbody.OpenBody) [][]byte {
	var blocks [][]byte
	for i, block := range b.Blocks {
		if block != nil && !b.Partial[i] {
			blocks = append(blocks, block)
		}
	}
	return blocks
}

// wholeMessage returns the message b makes with what op ends it with (msgbody's
// OpenBody.Message); ok is false when b holds no whole message, or no block at all: such a
// message keeps its block rows (none), so that an empty interrupted one reads as empty.
func wholeMessage(b *msgbody.OpenBody, op session.EndMessage) (session.StoredMessage, bool) {
	if len(b.Blocks) == 0 {
		return session.StoredMessage{}, false
	}
	return b.Message(op)
}
