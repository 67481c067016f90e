// Package session is sessionkeep's domain, in pure Go: content blocks, messages and their
// envelopes, the streaming assembler that turns stream chunks into blocks, turns, the token
// tracker, and the live Session that records a conversation as it streams.
//
// A Session never touches disk itself. Everything it records becomes an Op handed to a
// Store (declared here, implemented in package persistence), which applies Ops in order
// and makes them durable in the background, so that ingesting a chunk never waits on disk.
//
// Blocks are kept as the exact JSON they arrived as; a block type sessionkeep does not know
// is preserved verbatim. Messages come back from a Store as StoredMessage values and are
// encoded to JSON (AppendMessage, AppendEnvelope) without decoding their blocks again.
//
// Records link to their parent by parentUuid, so a session is a tree (tree.go); its head
// is the main-chain record the next message follows, and reads follow the branch that ends
// there (branches.go: Rewind, Fork). File-history snapshots (snapshots.go) are the one place
// a Session touches files other than through its Store: SnapshotFiles reads the files an
// agent works on and RestoreFiles writes them back, inside a folder it never leaves
// (file_paths.go).
//
// Rebuilding what goes to the model for each call is package contextbuild, and counting
// tokens package tokens: a Manager hands every message that ends to its TokenCounter
// (token_counter.go), and uses.go is what those packages use of a Session.
package session
