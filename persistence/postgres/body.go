package postgres

import (
	"encoding/binary"
	"errors"
	"strings"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// A message's body is its envelope JSON, ASCII only, encoded once when it ends, and its
// layout says where in the body the message object and each block are: the format of the
// SQLite backend's bodies (its body.go), so both stores hand a restore the same bytes. It is
// stored as it is: PostgreSQL compresses a large value itself when it moves it out of line
// (TOAST), which measured smaller than packing it first (bench/README.md, issue 30).

// errBadLayout is a layout that cannot be read against its body: the store is damaged.
var errBadLayout = errors.New("damaged message layout")

// buildBody encodes m, whose blocks are JSON, as its body and layout.
func buildBody(m *session.StoredMessage) (body, layout []byte) {
	head, at := session.AppendEnvelopeHead(nil, m)
	body = jsonenc.AppendASCII(make([]byte, 0, len(head)+bodyBlocksLen(m)+len(m.Meta)+16), head)
	messageAt := len(jsonenc.AppendASCII(nil, head[:at]))
	layout = binary.AppendUvarint(nil, uint64(messageAt))
	layout = binary.AppendUvarint(layout, uint64(len(m.Blocks)))
	for i, block := range m.Blocks {
		if i > 0 {
			body = append(body, ',')
		}
		start := len(body)
		body = jsonenc.AppendASCII(body, block)
		layout = binary.AppendUvarint(layout, uint64(start))
		layout = binary.AppendUvarint(layout, uint64(len(body)-start))
		layout = binary.AppendUvarint(layout, 0) // no blob: every block is in the body
	}
	body = jsonenc.AppendASCII(body, session.AppendMessageTail(nil, m))
	return append(body, '}'), layout
}

// bodyBlocksLen is the length of m's blocks' JSON.
func bodyBlocksLen(m *session.StoredMessage) int {
	n := 0
	for _, b := range m.Blocks {
		n += len(b) + 1
	}
	return n
}

// bodyBlocks appends to blocks the JSON of each block of body, slices of it, and returns
// where its message object begins.
func bodyBlocks(body, layout []byte, blocks [][]byte) (messageAt int, _ [][]byte, err error) {
	next := func() int {
		v, n := binary.Uvarint(layout)
		if n <= 0 || v > 1<<40 {
			layout = nil
			return -1
		}
		layout = layout[n:]
		return int(v)
	}
	messageAt = next()
	count := next()
	if messageAt < 0 || messageAt >= len(body) || count < 0 || count > len(layout) {
		return 0, blocks, errBadLayout
	}
	prev := messageAt
	for i := 0; i < count; i++ {
		at, n, blob := next(), next(), next()
		if at < prev || n < 0 || blob != 0 || at+n > len(body) {
			return 0, blocks, errBadLayout
		}
		prev = at + n
		blocks = append(blocks, body[at:at+n])
	}
	return messageAt, blocks, nil
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
