package postgres

import (
	"bytes"
	"strings"

	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/session"
)

// A message that has ended whole is stored as its body and layout, in the format of
// persistence/msgbody, which the SQLite backend shares: both stores hand a restore the same
// bytes. The meta and extra columns keep the whole fields beside the body (readers and SQL
// such as ScanLinks' read them there).
//
// How a body is stored was measured on the shared bench's W2/W3 sessions (22,000 bodies,
// 188 MB of JSON; bench/README.md, issue 30 round 3): plain in a column the server compresses
// with lz4, 97.8 MB and the fastest to write and read back; with pglz, the default, 86.5 MB
// but 3-4x the server's time to write; packed with s2 first (SQLite's live form), 100.5 MB,
// which the server cannot compress further; packed with zstd and the import's dictionary,
// 71.7 MB, at 50 µs of the writer's CPU a 3 KB body. So a live body is stored plain (lz4,
// migration 4), and an imported one packed with the dictionary, as on SQLite, where the
// import's throughput and the store's size matter more than the writer's latency. Large
// payloads are not deduplicated by hash, as on SQLite since its migration 10: the lookup
// cost the writer more than the sharing saved.

// encodeBody encodes m, a message whose blocks are all complete, as its stored body and
// layout: plain, or packed with the dictionary when imported (msgbody.Builder), in storage
// of its own, since a queued statement holds it until the batch is sent.
func encodeBody(bb *msgbody.Builder, m *session.StoredMessage, imported bool) (body, layout []byte) {
	if imported {
		body, layout, _ = bb.Build(m, true)
	} else {
		body, layout, _ = bb.BuildPlain(m)
	}
	return bytes.Clone(body), layout
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
