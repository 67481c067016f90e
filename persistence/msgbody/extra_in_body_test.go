package msgbody

import "testing"

// TestExtraCutFromADamagedBodyIsCorrupt: a body whose extra fields cannot be found is a
// damaged file, said as such, not extra fields made up.
func TestExtraCutFromADamagedBodyIsCorrupt(t *testing.T) {
	body := []byte(`{"uuid":"u","message":{"role":"user","content":[]}}`)
	lay := Layout{MessageAt: len(`{"uuid":"u","message":`)}
	if _, err := ExtraOf(ExtraInBody, body, lay, 3); err == nil {
		t.Error("extra fields cut from a body with no isSidechain field")
	}
	if got, err := ExtraOf([]byte(`{"a":1}`), body, lay, 3); err != nil || string(got) != `{"a":1}` {
		t.Errorf("an extra column of its own read as %s, %v", got, err)
	}
}

// TestCallOnlyColumn: only {"parentToolUseId":"<a plain string>"} is a call-only column;
// anything else, cut short too, is an extra column of its own.
func TestCallOnlyColumn(t *testing.T) {
	for column, want := range map[string]bool{
		`{"parentToolUseId":"toolu_1"}`:      true,
		`{"parentToolUseId":""}`:             true,
		`{"parentToolUseId":"a\\\\"}`:        true,
		`{"parentToolUseId":"a\"b"}`:         false,
		`{"parentToolUseId":"a","b":"c"}`:    false,
		`{"parentToolUseId":7}`:              false,
		`{"parentToolUseId":"zoë"}`:          false,
		`{"parentToolUseId":`:                false,
		`{"parentToolUseId":"`:               false,
		`{"parentToolUseId":""`:              false,
		`{"source":{"parentToolUseId":"x"}}`: false,
	} {
		if got := isCallOnly([]byte(column)); got != want {
			t.Errorf("isCallOnly(%s) = %v, want %v", column, got, want)
		}
	}
}
