// Package schema is the SQLite store's schema and how a store file comes to have it: the
// numbered migrations, recorded in the file itself (schema_migrations), each applied once
// in the transaction that records it; the fresh schema generated from them, which a new
// file is given in one step (fresh.go, fresh_gen.go); and what an open finishes after them
// (messages an older sessionkeep ended after the store was migrated, the space a migration
// left free). The store runs Migrate on its connection when it opens.
package schema
