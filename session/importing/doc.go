// Package importing joins records another agent wrote (a Claude Code or Codex transcript,
// a sessionkeep archive) into a session: it creates the session when needed, leaves out
// what the session already holds, numbers turns as for live messages and puts the file
// snapshots the records carry.
//
// The formats themselves are read into Records by the persistence packages (claudecode,
// codex, archive, through interop); importing writes them through the hooks session gives
// it (Manager.OpenOrCreate, Session.WriteRecords).
package importing
