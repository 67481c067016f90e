package archive

import (
	"bytes"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/transcript/importcheck"
)

// archiveSeed is an archive with the kinds of envelope an export writes.
const archiveSeed = `{"format":"sessionkeep","version":1,"session":{"id":"s1","projectPath":"/p","title":"T","createdAt":"2025-01-01T00:00:00.000Z","updatedAt":"2025-01-01T00:00:09.000Z","status":"active","tokenTracker":{"inputTokens":5,"outputTokens":1,"cacheReadInputTokens":0,"cacheCreationInputTokens":0,"contextTokens":5}}}
{"uuid":"u1","parentUuid":null,"sessionId":"s1","timestamp":"2025-01-01T00:00:01.000Z","type":"user","status":"complete","turn":0,"isSidechain":false,"context":{"cwd":"/p"},"message":{"role":"user","content":[{"type":"text","text":"hi"}]}}
{"uuid":"a1","parentUuid":"u1","sessionId":"s1","timestamp":"2025-01-01T00:00:02.000Z","type":"assistant","status":"complete","turn":0,"isSidechain":false,"message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}],"usage":{"input_tokens":5,"output_tokens":1}}}
{"uuid":"r1","parentUuid":"a1","sessionId":"s1","timestamp":"2025-01-01T00:00:03.000Z","type":"tool_result","status":"complete","turn":0,"isSidechain":true,"agentId":"x","parentToolUseId":"t1","toolUseResult":{"stdout":"a"},"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a"}]}}
`

// FuzzReadJSONL reads random archives: a damaged header is an error, any other damage a
// skipped line, and what is read imports.
func FuzzReadJSONL(f *testing.F) {
	f.Add([]byte(archiveSeed))
	m := importcheck.Store(f)
	f.Fuzz(func(t *testing.T, text []byte) {
		file, err := ReadJSONL(bytes.NewReader(text), "fuzz.jsonl", nil)
		if err != nil {
			return
		}
		importcheck.Import(t, m, file)
	})
}
