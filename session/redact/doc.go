// Package redact replaces secrets in tool inputs and outputs before a store keeps them:
// the built-in kinds of secret (patterns.go) and a caller's own patterns, each match
// becoming [REDACTED:kind].
//
// A Manager takes a Redactor as its session.Redactor plug-in (Manager.Redact); it changes
// only the string values of tool blocks and tool records, never their keys or layout.
package redact
