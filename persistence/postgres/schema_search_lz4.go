package postgres

// schemaV7 is migration 7: the server compresses a message's search vector with lz4, as it
// does its body (schema_bodies.go). pglz, the default, left nearly every vector as it was: it
// gives up on a value in whose first kilobyte it finds nothing to repeat, and a vector begins
// with an offset per word. lz4 stored the W2/W3 sessions' vectors in 79.6 MB instead of 95.7 MB
// (bench/README.md, issue 30 round 7). The change is instant: it applies to the vectors the
// indexer writes from then on; those stored before keep their form, which a read takes as it
// is. A server built without lz4 keeps pglz, as for the bodies.
var schemaV7 = []string{
	`DO $$ BEGIN
		ALTER TABLE messages ALTER COLUMN search SET COMPRESSION lz4;
	EXCEPTION WHEN others THEN NULL;
	END $$`,
}
