// Package msgbody is a message's stored form apart from any backend: a completed message
// as one body and its layout, and the streaming message not yet ended, whose body the
// writer makes when it ends.
//
// A complete message is stored as its body and nothing else: the envelope JSON, encoded
// once when the message ends, ASCII only (jsonenc.AppendASCII), so that reading a session
// back is a copy of one column per message and not a join over its blocks. Block rows are
// a journal of what is still streaming (the durability bound holds mid-message); a writer
// drops them when the message ends, or never writes them when it ends in the batch it
// began in. The layout says where the message object and each block are in the body; the
// meta and extra columns leave out what the body holds (MetaInBody, ExtraInBody). How a
// body is packed (s2, a dictionary) is persistence/bodycodec's. An imported record's
// columns can be made before the writer sees it, on the importing goroutine
// (PrepareImported).
package msgbody
