// Package sessiontest is test support for the Go tests of session and the packages built on
// it, as net/http/httptest is for net/http: a Manager over a real SQLite file, chunk
// constructors that make a stream read like the stream, and helpers that decode what a
// session returns.
//
// It holds no logic of its own; every helper fails the test that calls it on an error.
package sessiontest
