package schema

// packedBodiesMigration is migration 11: a large body may be stored packed (persistence/bodycodec),
// which SQLite's JSON functions cannot read, so the view the body search index is built
// from (and takes its snippets from) reads each body through unpack_body. The bodies
// already stored are plain and stay as they are: unpack_body returns a plain body as it is.
var packedBodiesMigration = []string{
	`DROP VIEW body_search_text`,
	`CREATE VIEW body_search_text(mid, text) AS
		SELECT mid, text FROM (SELECT mid,
			(SELECT nullif(group_concat(t, ' '), '') FROM
				(SELECT ` + blockTextOf("value") + ` AS t FROM json_each(body, '$.message.content'))) AS text
			FROM (SELECT m.mid AS mid, unpack_body(m.body) AS body FROM messages m WHERE m.body IS NOT NULL)
			WHERE json_valid(body))
		WHERE text IS NOT NULL`,
}
