package blocks

import "testing"

func TestBlocksTextForMissedContext(t *testing.T) {
	blocks := [][]byte{
		[]byte(`{"type":"thinking","thinking":"private","signature":"s"}`),
		[]byte(`{"type":"text","text":"Let me look."}`),
		[]byte(`{"type":"tool_use","id":"t1","name":"grep","input":{"q":"x"}}`),
		[]byte(`{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"a.go:1"},{"type":"image","source":{}}],"is_error":true}`),
		[]byte(`{"type":"document","source":{},"title":"spec.pdf"}`),
		[]byte(`{"type":"server_tool_use","id":"s1"}`),
		[]byte(`not json`),
	}
	want := `Let me look. [tool_use grep {"q":"x"}] [tool_result error a.go:1 [image]] [document spec.pdf] [server_tool_use]`
	if got := BlocksText(blocks); got != want {
		t.Errorf("BlocksText =\n%s\nwant\n%s", got, want)
	}
}
