// Package session is sessionkeep's domain, in pure Go: messages and their envelopes, the
// streaming assembler that turns stream chunks into blocks, turns, the token tracker, and
// the live Session that records a conversation as it streams.
//
// Below it are leaf packages that know nothing of sessions: blocks (what a content block
// is: its types, checks and text), stream (what a stream chunk is) and jsonenc (JSON
// appended by hand, which blocks uses too). session imports only those; every other
// package of sessionkeep's is above it.
//
// A Session never touches disk itself. Everything it records becomes an Op handed to a
// Store (declared here, implemented in package persistence/sqlite), which applies Ops in order
// and makes them durable in the background, so that ingesting a chunk never waits on disk
// (but for a tool result answering a call the session does not know of: see Ingest).
// Chunks become records in the streaming assembler (assembler.go), which its Session drives
// under its lock; where each record goes is the session's chain (chain.go).
// Records another agent wrote are joined into a session by package importing, which
// writes them whole through record_writer.go, numbered and redacted as live ones are.
//
// Blocks are kept as the exact JSON they arrived as (checked by package blocks); a block
// type sessionkeep does not know is preserved verbatim. Messages come back from a Store as
// StoredMessage values and are encoded to JSON (AppendEncoded, AppendEnvelope) without
// decoding their blocks again.
//
// Records link to their parent by parentUuid, so a session is a tree (tree.go); its head
// is the main-chain record the next message follows, and reads follow the branch that ends
// there (head.go); package branches moves the head (Rewind), copies a branch into a new
// session (Fork) and lays the tree out for a history view. File-history snapshots are
// records too (file_snapshot.go); taking them from the files on disk and restoring them is
// package snapshots. What a hosted agent keeps beside
// the conversation (manual history, missed context, keys) is package hosted; the packages
// beside session reach a Session through parts.go.
//
// The catalogue of a store's sessions (listing, finding by id prefix, details, stats,
// search, rename, archive, delete) is package catalog, which reaches a Manager through
// parts.go too. Rebuilding what goes to the model for each call is package contextbuild,
// and counting tokens package tokens: a Manager hands every message that ends to its
// TokenCounter (token_counter.go), and uses.go is what those packages use of a Session.
// Secrets in tool inputs and outputs are replaced, before they are stored, by the Manager's
// Redactor (redactor.go; package redact has the patterns).
package session
