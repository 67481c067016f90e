package bridge

import (
	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

// The chunks that carry whole blocks or block fields, for what the delta chunks cannot
// express. Their JSON-valued field arrives serialised, like tool_use input.
func init() {
	native.Register("ingestBlock", ingest(stream.ChunkBlock, reqJSON(fieldJSON, "block")))
	native.Register("ingestBlockStart", ingest(stream.ChunkBlockStart, reqJSON(fieldJSON, "block")))
	native.Register("ingestBlockFields", ingest(stream.ChunkBlockFields, reqJSON(fieldJSON, "fields")))
}
