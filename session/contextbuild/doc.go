// Package contextbuild rebuilds what goes to the model for each call of a session within a
// token budget: strategies (strategy*.go) decide from stored cumulative counts what fits and
// read only what they send, repairs (repair*.go) and the provider checks (validate*.go) make
// every context valid without changing what is stored, and summaries and compaction
// boundaries (summary.go, compact.go) are kept beside the messages, the summarizer being
// the caller's.
//
// It reads a session through its store's context cache (CacheStore, with token counting's
// tokens.Store), which persistence implements beside session.Store.
package contextbuild
