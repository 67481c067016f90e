package schema

// insertEffectsMigration is migration 14: the AFTER INSERT triggers on messages go, and the
// writer does their work once per batch (persistence/sqlite/insert_effects.go): queueing a
// new row's body for search, and marking a session branched when a new main-chain row does
// not follow the one before it. A trigger made every message INSERT open a statement
// journal, half its cost. What the stores migrated before held, the triggers kept right;
// the writer keeps it from here on.
var insertEffectsMigration = []string{
	`DROP TRIGGER messages_branch`,
	`DROP TRIGGER messages_body_queue_insert`,
}
