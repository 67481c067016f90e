package contextbuild

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session/tokens"
)

func TestValidateAnthropicFindsEachBrokenRule(t *testing.T) {
	u := func(blocks ...string) string { return fmt.Sprintf(`{"role":"user","content":[%s]}`, join(blocks)) }
	a := func(blocks ...string) string { return fmt.Sprintf(`{"role":"assistant","content":[%s]}`, join(blocks)) }
	cases := []struct {
		code string
		msgs []string
	}{
		{ProblemEmpty, nil},
		{ProblemFirstNotUser, []string{a(reply)}},
		{ProblemRolesNotAlternate, []string{u(prompt), u(prompt)}},
		{ProblemUnexpectedField, []string{`{"role":"user","content":"hi","id":"msg_1"}`}},
		{ProblemInvalidRole, []string{`{"role":"system","content":"hi"}`}},
		{ProblemEmptyContent, []string{`{"role":"user","content":[]}`}},
		{ProblemEmptyText, []string{u(`{"type":"text","text":" "}`)}},
		{ProblemUnsignedThinking, []string{u(prompt), a(`{"type":"thinking","thinking":"x"}`, reply)}},
		{ProblemMissingToolResult, []string{u(prompt), a(useA), u(prompt)}},
		{ProblemMissingToolResult, []string{u(prompt), a(useA)}},
		{ProblemOrphanToolResult, []string{u(prompt), a(reply), u(resultA)}},
		{ProblemResultNotFirst, []string{u(prompt), a(useA), u(prompt, resultA)}},
		{ProblemDuplicateResult, []string{u(prompt), a(useA), u(resultA, resultA)}},
		{ProblemDuplicateToolUse, []string{u(prompt), a(useA), u(resultA), a(useA), u(resultA)}},
		{ProblemInvalidToolUseID, []string{u(prompt), a(`{"type":"tool_use","id":"bad id","name":"x","input":{}}`), u(`{"type":"tool_result","tool_use_id":"bad id"}`)}},
		{ProblemMisplacedBlock, []string{u(useA)}},
	}
	for _, c := range cases {
		v, err := ValidateContext([]byte("["+join(c.msgs)+"]"), tokens.ProviderAnthropic)
		if err != nil || v.Valid || !hasProblem(v, c.code) {
			t.Errorf("%s: %v %+v", c.code, err, v)
		}
	}
	ok := "[" + join([]string{u(prompt), a(`{"type":"thinking","thinking":"x","signature":"s"}`, useA, useB), u(resultB, resultA, prompt), a(reply)}) + "]"
	if v, _ := ValidateContext([]byte(ok), tokens.ProviderAnthropic); !v.Valid {
		t.Errorf("a valid context has problems: %+v", v.Problems)
	}
}

func TestValidateOpenAIFindsEachBrokenRule(t *testing.T) {
	call := `{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"ls","arguments":"{}"}}]}`
	tool := `{"role":"tool","tool_call_id":"call_1","content":"a.go"}`
	user := `{"role":"user","content":"hi"}`
	cases := []struct {
		code string
		msgs []string
	}{
		{ProblemMissingToolResult, []string{user, call, user}},
		{ProblemMissingToolResult, []string{user, call}},
		{ProblemOrphanToolResult, []string{user, tool}},
		{ProblemInvalidToolCall, []string{user, `{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"ls","arguments":"{"}}]}`}},
		{ProblemEmptyContent, []string{`{"role":"user","content":""}`}},
		{ProblemEmptyContent, []string{user, `{"role":"assistant"}`}},
		{ProblemDuplicateToolUse, []string{user, call, tool, call, tool}},
		{ProblemInvalidRole, []string{`{"role":"function","content":"x"}`}},
	}
	for _, c := range cases {
		v, err := ValidateContext([]byte("["+join(c.msgs)+"]"), tokens.ProviderOpenAI)
		if err != nil || v.Valid || !hasProblem(v, c.code) {
			t.Errorf("%s: %v %+v", c.code, err, v)
		}
	}
	if v, _ := ValidateContext([]byte("["+join([]string{`{"role":"system","content":"s"}`, user, call, tool, user})+"]"), tokens.ProviderOpenAI); !v.Valid {
		t.Errorf("a valid context has problems: %+v", v.Problems)
	}
	if _, err := ValidateContext([]byte("[]"), "gemini"); err == nil {
		t.Error("an unknown provider is accepted")
	}
}

func hasProblem(v Validation, code string) bool {
	for _, p := range v.Problems {
		if p.Code == code {
			return true
		}
	}
	return false
}

func join(parts []string) string { return strings.Join(parts, ",") }

// The validator refuses what the Messages API refuses: a block type it does not know, and a
// field a block does not take.
func TestValidateAnthropicRefusesUnknownTypesAndFields(t *testing.T) {
	msgs := `[{"role":"user","content":[{"type":"history_start","by":"x"},{"type":"text","text":"hi","openai_item":{}}]}]`
	v, err := ValidateContext([]byte(msgs), tokens.ProviderAnthropic)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, p := range v.Problems {
		kinds = append(kinds, p.Code)
	}
	if v.Valid || !slices.Contains(kinds, ProblemInvalidBlock) || !slices.Contains(kinds, ProblemUnexpectedField) {
		t.Errorf("problems %v; want invalid_block and unexpected_field", kinds)
	}
}
