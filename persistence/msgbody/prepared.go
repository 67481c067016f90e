package msgbody

import (
	"bytes"
	"sync"

	"github.com/sessionkeep/sessionkeep/session"
)

// An imported record arrives whole: RecordWriter.Append queues its BeginMessage, its
// PutBlocks and its EndMessage with one Apply. A store's writer goroutine, the import's one
// serial stage, used to encode and pack its body (zstd or s2 with the import's dictionary)
// and its extra column when it reached the EndMessage. PrepareImported does that work on
// the importing goroutine, before the store takes its queue's lock, and hands the stored
// bytes to the writer on the EndMessage (session.EndMessage.Prepared, read back by
// Prepared), so the writer only inserts the row.
//
// The bytes are those the writer would make: the same OpenBody.Message and MessageColumns
// (or WholeRecordColumns for a record that is not a message), run on what the writer would
// hold. A writer that applies the Ops of one Apply one after another with nothing between
// them (a batch taken whole from the queue, appended under one lock) holds of the message,
// when the EndMessage comes, exactly what the Ops before it in the same Apply made. Only
// EndMessages with Imported set are prepared: a live session's Ops are queued as they
// come, and none waits on an import's packing, which runs outside the lock.

// preparedBuilders are Builders for importing goroutines, whose buffers are reused
// from one record to the next as the writer's own builder's are.
var preparedBuilders = sync.Pool{New: func() any { return new(Builder) }}

// PrepareImported returns ops with each imported record that is whole in them (a
// BeginMessage, PutBlocks of its blocks in order, its EndMessage) prepared: its EndMessage
// carries the record's stored form. ops itself is not changed (it is the caller's); a copy
// is made only when a record is prepared.
func PrepareImported(ops []session.Op) []session.Op {
	out, copied := ops, false
	begin := -1
	for i, op := range ops {
		switch op := op.(type) {
		case session.BeginMessage:
			begin = i
		case session.PutBlock:
		case session.EndMessage:
			if op.Imported && begin >= 0 {
				if p := prepareRecord(ops[begin:i], op); p != nil {
					if !copied {
						out, copied = append([]session.Op(nil), ops...), true
					}
					op.Prepared = p
					out[i] = op
				}
			}
			begin = -1
		default:
			begin = -1
		}
	}
	return out
}

// prepareRecord returns the stored columns of the record that run (its BeginMessage and the
// PutBlocks after it) and end make, or nil when they are not one whole record that the
// writer stores with one INSERT: blocks out of order, partial or of another message, or a
// record that is not a message but holds blocks.
func prepareRecord(run []session.Op, end session.EndMessage) *Columns {
	begin := run[0].(session.BeginMessage)
	if begin.SessionID != end.SessionID || begin.Header.Seq != end.Seq {
		return nil
	}
	b := OpenBody{SessionID: begin.SessionID, Header: begin.Header, Unwritten: true}
	for i, op := range run[1:] {
		put := op.(session.PutBlock)
		if put.SessionID != end.SessionID || put.Seq != end.Seq || put.Index != i || put.Partial || put.JSON == nil {
			return nil
		}
		b.Add(i, put.JSON, false)
	}
	if b.IsWholeRecord() {
		c := WholeRecordColumns(end)
		return &c
	}
	m, ok := b.Message(end)
	if !ok {
		return nil
	}
	bb := preparedBuilders.Get().(*Builder)
	defer preparedBuilders.Put(bb)
	c := MessageColumns(bb, &m, true)
	c.Body = bytes.Clone(c.Body) // bb's storage, which its next record reuses
	return &c
}

// Prepared returns the stored form PrepareImported made of the record op ends, or nil when it made
// none.
func Prepared(op session.EndMessage) *Columns {
	p, _ := op.Prepared.(*Columns)
	return p
}
