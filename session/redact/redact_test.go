package redact

import (
	"errors"
	"strings"
	"testing"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
)

// Secrets of each built-in kind, made up in the providers' formats.
var sampleSecrets = map[string]string{
	"anthropic_key":  "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdEf",
	"openai_key":     "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
	"stripe_key":     "sk_live_AbCdEfGhIjKlMnOpQrSt",
	"aws_access_key": "AKIAIOSFODNN7EXAMPLE",
	"github_token":   "ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
	"google_api_key": "AIzaSyAbCdEfGhIjKlMnOpQrStUvWxYz0123456",
	"slack_token":    "xoxb-1234567890-abcdefghij",
}

func TestBuiltinPatternsReplaceEachKind(t *testing.T) {
	r, err := New(Options{Builtin: true})
	if err != nil {
		t.Fatal(err)
	}
	for kind, secret := range sampleSecrets {
		got, n := r.text("key: " + secret + " end")
		if want := "key: [REDACTED:" + kind + "] end"; got != want || n != 1 {
			t.Errorf("%s: %q (%d), want %q", kind, got, n, want)
		}
	}
	for in, want := range map[string]string{
		"Authorization: Bearer abcdefghijklmnop0123":                                 "Authorization: Bearer [REDACTED:bearer_token]",
		"DB_PASSWORD=hunter22\nexport API_KEY='k 1'\nPORT=8080":                      "DB_PASSWORD=[REDACTED:env_secret]\nexport API_KEY=[REDACTED:env_secret]\nPORT=8080",
		"OPENAI_API_KEY=" + sampleSecrets["openai_key"]:                              "OPENAI_API_KEY=[REDACTED:openai_key]",
		"-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----\nok": "[REDACTED:private_key]\nok",
		"task-ant-1 sk-short AKIA123 the token is fine":                              "task-ant-1 sk-short AKIA123 the token is fine",
	} {
		if got, _ := r.text(in); got != want {
			t.Errorf("text(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOnlyToolBlocksAndOnlyTheirValuesChange(t *testing.T) {
	r, _ := New(Options{Builtin: true, Patterns: []Pattern{{Source: "hunter2", Literal: true}, {Source: `id-\d+`, Flags: "gi"}}})
	key := sampleSecrets["github_token"]
	use := []byte(`{"type":"tool_use","id":"t","name":"Bash","input":{"` + key + `":1, "cmd":"curl -H 'x: ` + key + `' \"u\" ID-42","pw":"hunter2"}}`)
	got, n := r.Block(use)
	want := `{"type":"tool_use","id":"t","name":"Bash","input":{"` + key + `":1, "cmd":"curl -H 'x: [REDACTED:github_token]' \"u\" [REDACTED:custom]","pw":"[REDACTED:custom]"}}`
	if string(got) != want || n != 3 {
		t.Errorf("Block = %s (%d)\nwant    %s", got, n, want)
	}
	if !json.Valid(got) {
		t.Errorf("not JSON: %s", got)
	}
	text := []byte(`{"type":"text","text":"` + key + `"}`)
	if got, n := r.Block(text); string(got) != string(text) || n != 0 {
		t.Errorf("a text block changed: %s", got)
	}
	clean := []byte(`{"type":"tool_result","tool_use_id":"t","content":"all \u00e9 fine"}`)
	if got, n := r.Block(clean); string(got) != string(clean) || n != 0 {
		t.Errorf("a block with no secret changed: %s", got)
	}
}

func TestRedactOptionsAreChecked(t *testing.T) {
	if r, err := New(Options{}); r != nil || err != nil {
		t.Errorf("nothing asked: %v, %v", r, err)
	}
	for _, p := range []Pattern{{Source: `(?<=x)y`}, {Source: "a*"}, {Source: "a*", Flags: "i"}, {Source: "", Literal: true}} {
		if _, err := New(Options{Patterns: []Pattern{p}}); !errors.Is(err, session.ErrInvalidArgument) || !strings.Contains(err.Error(), "patterns[0]") {
			t.Errorf("%+v: %v", p, err)
		}
	}
}
