// Package archive is sessionkeep's own file format, for backup and restore: every field of
// a session. JSONL: a header line {"format":"sessionkeep","version":1,"session":{…}} with
// the session's listing and token tracker, then one envelope a line, exactly as
// envelopes() gives them. JSON: the same as one document, the envelopes in "envelopes".
// Reading either back restores the session: same id, same records, same uuids.
package archive

// Format is the value of the header's "format".
const Format = "sessionkeep"

// Version is the version of the format this package writes and reads.
const Version = 1
