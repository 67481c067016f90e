package redact

import "regexp"

// secretPattern is one kind of secret: where a match has a group named "secret", only that
// group is replaced (the name of a .env assignment, the word Bearer, stay).
type secretPattern struct {
	kind string
	re   *regexp.Regexp
}

// builtinSecrets are the secrets redact: true looks for. Order matters where one prefix is
// another's (sk-ant- before sk-): text already replaced no longer matches.
var builtinSecrets = []secretPattern{
	{"private_key", regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----`)},
	{"anthropic_key", regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`)},
	{"openai_key", regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`)},
	{"stripe_key", regexp.MustCompile(`\b(?:sk|rk)_live_[A-Za-z0-9]{16,}`)},
	{"aws_access_key", regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`)},
	{"github_token", regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})`)},
	{"google_api_key", regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`)},
	{"slack_token", regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`)},
	{"bearer_token", regexp.MustCompile(`(?i)\bbearer\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)`)},
	// NAME=value lines of .env files and shell exports, where NAME says it holds a secret.
	{"env_secret", regexp.MustCompile(`(?im)^[ \t]*(?:export[ \t]+)?[A-Za-z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)[A-Za-z0-9_]*[ \t]*=[ \t]*(?P<secret>"[^"\n]*"|'[^'\n]*'|[^\s"'#]+)`)},
}
