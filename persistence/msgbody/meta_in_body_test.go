package msgbody

import "testing"

// TestMetaCutFromADamagedBodyIsCorrupt: an empty meta column beside a body whose meta
// fields cannot be found is a damaged file, said as such, not meta made up.
func TestMetaCutFromADamagedBodyIsCorrupt(t *testing.T) {
	body := []byte(`{"uuid":"u","message":{"role":"user","content":[]}}`)
	lay := Layout{MessageAt: len(`{"uuid":"u","message":`)}
	if _, err := MetaOf(MetaInBody, body, lay, 3); err == nil {
		t.Error("meta cut from a body with no block")
	}
	body = []byte(`{"uuid":"u","message":{"role":"user","content":[{"type":"text"}]}}`)
	lay = Layout{MessageAt: len(`{"uuid":"u","message":`), Blocks: []Span{{At: len(`{"uuid":"u","message":{"role":"user","content":[`), N: len(`{"type":"text"}`)}}}
	if _, err := MetaOf(MetaInBody, body, lay, 3); err == nil {
		t.Error("meta cut from a body with no meta fields")
	}
	if got, err := MetaOf([]byte(`{"a":1}`), body, lay, 3); err != nil || string(got) != `{"a":1}` {
		t.Errorf("a meta column of its own read as %s, %v", got, err)
	}
}
