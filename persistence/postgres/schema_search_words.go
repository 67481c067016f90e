package postgres

// schemaV2 is migration 2: a block's search vector also holds the words of the paths, URLs
// and e-mail addresses in its text. PostgreSQL's parser keeps "src/auth.ts" as one lexeme,
// so a search for "auth" missed it, where SQLite's FTS5 (unicode61) splits it into "src",
// "auth" and "ts". The vector now is the parser's lexemes (so "src/auth.ts:42" still
// matches as typed) plus those of the text with every run of non-alphanumerics made a space.
var schemaV2 = []string{
	`ALTER TABLE blocks DROP COLUMN search`, // drops its index too
	`ALTER TABLE blocks ADD COLUMN search tsvector GENERATED ALWAYS AS (
		to_tsvector('simple', search_text) ||
		to_tsvector('simple', regexp_replace(search_text, '[^[:alnum:]]+', ' ', 'g'))) STORED`,
	`CREATE INDEX blocks_search ON blocks USING GIN (search)`,
}
