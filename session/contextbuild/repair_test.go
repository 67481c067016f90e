package contextbuild

import (
	"strings"
	"testing"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// msg makes a draft message from blocks written as JSON.
func msg(seq int64, role string, blocks ...string) *ctxMessage {
	m := &ctxMessage{seq: seq, role: role}
	for _, b := range blocks {
		m.blocks = append(m.blocks, []byte(b))
	}
	m.recount()
	return m
}

const (
	useA    = `{"type":"tool_use","id":"toolu_a","name":"Read","input":{"file_path":"a.go"}}`
	useB    = `{"type":"tool_use","id":"toolu_b","name":"Bash","input":{"command":"ls"}}`
	resultA = `{"type":"tool_result","tool_use_id":"toolu_a","content":"package a","is_error":false}`
	resultB = `{"type":"tool_result","tool_use_id":"toolu_b","content":"a.go","is_error":false}`
	prompt  = `{"type":"text","text":"fix it"}`
	reply   = `{"type":"text","text":"done"}`
)

func TestRepairMakesDamagedHistoriesValid(t *testing.T) {
	cases := map[string]struct {
		msgs  []*ctxMessage
		kinds []string
	}{
		"a call interrupted before its result": {
			[]*ctxMessage{msg(0, "user", prompt), msg(1, "assistant", useA)},
			[]string{RepairSyntheticResult}},
		"a result with no call": {
			[]*ctxMessage{msg(0, "user", prompt), msg(1, "assistant", reply), msg(2, "user", resultA, prompt)},
			[]string{RepairOrphanResult}},
		"a result recorded after another agent's messages": {
			[]*ctxMessage{msg(0, "user", prompt), msg(1, "assistant", useA), msg(2, "user", resultB), msg(3, "assistant", useB), msg(4, "user", resultA)},
			[]string{RepairMovedResult}},
		"a reply split into one record per block, as Claude Code writes it": {
			[]*ctxMessage{msg(0, "user", prompt), msg(1, "assistant", `{"type":"thinking","thinking":"hm","signature":"s1"}`),
				msg(2, "assistant", reply), msg(3, "assistant", useA, useB), msg(4, "user", resultA), msg(5, "user", resultB)},
			[]string{RepairMerged}},
		"the same call recorded twice": {
			[]*ctxMessage{msg(0, "user", prompt), msg(1, "assistant", useA), msg(2, "assistant", useA), msg(3, "user", resultA)},
			[]string{RepairDuplicateToolUse}},
		"thinking cut off before its signature, and empty text": {
			[]*ctxMessage{msg(0, "user", prompt, `{"type":"text","text":"  "}`), msg(1, "assistant", `{"type":"thinking","thinking":"half"}`, reply)},
			[]string{RepairEmptyBlock, RepairUnsignedThinking}},
		"a tool that printed nothing": {
			[]*ctxMessage{msg(0, "user", prompt), msg(1, "assistant", useB), msg(2, "user", `{"type":"tool_result","tool_use_id":"toolu_b","content":""}`)},
			nil},
		"a reply imported from Codex with its reasoning item": {
			[]*ctxMessage{msg(0, "user", prompt), msg(1, "assistant", `{"type":"reasoning","encrypted_content":"gAAA","summary":[]}`, reply)},
			[]string{RepairForeignBlock}},
		"a plug-in's marker and SDK item blocks, and an SDK's copy on a text block": {
			[]*ctxMessage{msg(0, "user", `{"type":"history_start","by":"openai-agents"}`, `{"type":"text","text":"fix it","openai_item":{"role":"user"}}`),
				msg(1, "assistant", `{"type":"openai_item","openai_item":{"type":"compaction"}}`, `{"type":"text","text":"done","providerMetadata":{"openai":{}}}`)},
			[]string{RepairForeignBlock, RepairStrippedFields}},
		"a history that starts with the assistant": {
			[]*ctxMessage{msg(0, "assistant", reply), msg(1, "user", prompt)},
			[]string{RepairLeadingUser}},
		"streamed input that was not JSON": {
			[]*ctxMessage{msg(0, "user", prompt), msg(1, "assistant", `{"type":"tool_use","id":"toolu_a","name":"Read","input":{},"raw_input":"{\"fi","input_error":"streamed input is not valid JSON"}`), msg(2, "user", resultA)},
			[]string{RepairStrippedFields}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			out, repairs := repair(c.msgs)
			for _, kind := range c.kinds {
				if !hasRepair(repairs, kind) {
					t.Errorf("no %s repair in %+v", kind, repairs)
				}
			}
			for _, provider := range []string{tokens.ProviderAnthropic, tokens.ProviderOpenAI} {
				if v, _ := ValidateContext(shape(out, provider), provider); !v.Valid {
					t.Errorf("%s: %+v\n%s", provider, v.Problems, shape(out, provider))
				}
			}
			var raw int64
			for _, m := range out {
				raw += m.tokens
			}
			if recounted := recountAll(out); raw < recounted {
				t.Errorf("the repaired context is counted %d, below its recount %d", raw, recounted)
			}
		})
	}
}

func TestRepairKeepsTheLastTurnsThinkingUnmodified(t *testing.T) {
	thinking := `{"type":"thinking","thinking":"Let me think step by step.","signature":"EqQBCgIYAhIM=="}`
	redacted := `{"type":"redacted_thinking","data":"RXJlZGFjdGVk"}`
	out, _ := repair([]*ctxMessage{msg(0, "user", prompt), msg(1, "assistant", thinking, redacted, useA), msg(2, "user", resultA)})
	sent := shapeAnthropic(out)
	if !strings.Contains(string(sent), thinking) || !strings.Contains(string(sent), redacted) {
		t.Fatalf("thinking was not passed back byte for byte: %s", sent)
	}
}

func hasRepair(repairs []Repair, kind string) bool {
	for _, r := range repairs {
		if r.Kind == kind {
			return true
		}
	}
	return false
}

func recountAll(msgs []*ctxMessage) int64 {
	var n int64
	for _, m := range msgs {
		c := *m
		c.recount()
		n += c.tokens
	}
	return n
}

func TestPruningKeepsWhatEachKindOfToolNeeds(t *testing.T) {
	var lines []string
	for i := 1; i <= 300; i++ {
		lines = append(lines, "line "+strings.Repeat("x", 20)+" "+string(rune('a'+i%26)))
	}
	file := strings.Join(lines, "\n")
	content, _ := json.Marshal(file)
	read := tokens.PruneToolResult(content, "Read")
	if !strings.HasPrefix(read, "[File: 300 lines]\n"+lines[0]) || !strings.Contains(read, "[... 280 lines omitted ...]") || !strings.HasSuffix(read, lines[299]) {
		t.Errorf("a file read keeps its head, tail and line count:\n%s", read)
	}
	for tool, label := range map[string]string{"Bash": "[Command output: 300 lines", "Grep": "[Search: 300 lines"} {
		got := tokens.PruneToolResult(content, tool)
		if !strings.HasPrefix(got, label) || !strings.Contains(got, lines[19]) || strings.Contains(got, lines[20]+"\n") || !strings.HasSuffix(got, "[... 280 more lines]") {
			t.Errorf("%s keeps its first 20 lines:\n%s", tool, got)
		}
	}
	if other := tokens.PruneToolResult(content, "WebFetch"); !strings.HasPrefix(other, "[Tool output: ") || len(other) > tokens.OtherKeepChars+40 {
		t.Errorf("other output keeps its first characters:\n%s", other)
	}
	short, _ := json.Marshal("exit 0")
	if got := tokens.PruneToolResult(short, "Bash"); got != "exit 0" {
		t.Errorf("a short output is kept: %q", got)
	}
	input, cut := tokens.PruneToolInput(json.RawMessage(`{"file_path":"a.go","content":"` + strings.Repeat("y", 5000) + `"}`))
	if !cut || !json.Valid(input) || len(input) > 400 || !strings.Contains(string(input), `"file_path":"a.go"`) {
		t.Errorf("a long tool input keeps its keys and the start of long values: %s", input)
	}
}

func TestBudgetIsTheWindowLessSystemToolsAndReserve(t *testing.T) {
	reserve := 0.5
	tokens := int64(1000)
	tools := json.RawMessage(`[{"name":"Read","description":"Read a file","input_schema":{"type":"object"}}]`)
	for _, c := range []struct {
		opts    BuildOptions
		reserve int64
	}{
		{BuildOptions{ContextWindow: 10000, SystemPrompt: "You are helpful.", Tools: tools}, 2500},
		{BuildOptions{ContextWindow: 10000, Reserve: &reserve}, 5000},
		{BuildOptions{ContextWindow: 10000, ReserveTokens: &tokens}, 1000},
	} {
		if err := c.opts.normalize(); err != nil {
			t.Fatal(err)
		}
		b := c.opts.budget()
		if b.ReserveForResponse != c.reserve || b.AvailableTokens != 10000-b.SystemPromptTokens-b.ToolDefinitionTokens-c.reserve {
			t.Errorf("%+v", b)
		}
		if (c.opts.SystemPrompt != "") != (b.SystemPromptTokens > 0) || (c.opts.Tools != nil) != (b.ToolDefinitionTokens > 0) {
			t.Errorf("system prompt and tools are not counted: %+v", b)
		}
	}
	bad := -0.1
	for _, o := range []BuildOptions{{}, {ContextWindow: 100, Format: "gemini"}, {ContextWindow: 100, Reserve: &bad}, {ContextWindow: 100, Strategy: "everything"}} {
		if err := o.normalize(); err == nil {
			t.Errorf("%+v is accepted", o)
		}
	}
}

// A block every field of which the API takes goes to the context byte for byte, so signed
// thinking is passed back exactly as stored; only a block with fields it refuses is rewritten.
func TestRepairKeepsAPIBlocksByteForByte(t *testing.T) {
	thinking := `{"type":"thinking","thinking":"plan \u00e9","signature":"EqQBCg=="}`
	cached := `{"type":"text","text":"fix it","cache_control":{"type":"ephemeral"}}`
	out, repairs := repair([]*ctxMessage{msg(0, "user", cached), msg(1, "assistant", thinking, `{"type":"text","text":"done","ui_message":{"id":"m1"}}`)})
	if len(repairs) != 1 || repairs[0].Kind != RepairStrippedFields {
		t.Fatalf("repairs %+v; want one stripped_fields", repairs)
	}
	if string(out[0].blocks[0]) != cached || string(out[1].blocks[0]) != thinking {
		t.Errorf("blocks the API takes were rewritten: %s / %s", out[0].blocks[0], out[1].blocks[0])
	}
	if got := string(out[1].blocks[1]); got != `{"text":"done","type":"text"}` {
		t.Errorf("stripped block %s", got)
	}
}
