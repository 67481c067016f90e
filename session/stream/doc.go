// Package stream is what an agent hands a session as a model response streams: a Chunk of
// one of the kinds the JavaScript API names (text and thinking deltas, tool calls, tool
// results, whole blocks, the message's start and end).
//
// It is the vocabulary only, and imports nothing of sessionkeep's; turning chunks into
// blocks and messages is the session's (Session.Ingest). A new chunk kind starts here.
package stream
