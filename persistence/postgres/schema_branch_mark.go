package postgres

// schemaV6 is migration 6: the writer marks a session branched (branch_mark.go), so the
// row trigger that did it goes. It ran two lookups per inserted message (the session's flag,
// the main-chain message before it) in plpgsql; the writer reads both once per session per
// batch with the lock it takes anyway, and sets the flag in the listing's UPDATE.
var schemaV6 = []string{
	`DROP TRIGGER IF EXISTS messages_written ON messages`,
	`DROP FUNCTION IF EXISTS message_written()`,
}
