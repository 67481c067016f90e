package postgres

// HeldUUIDs returns which of uuids the session holds a message or record of: one statement
// for a batch of an import, through the index of the messages' uuids, so that an import
// keeps no set of every uuid it has met (a file of gigabytes holds millions).
func (s *Store) HeldUUIDs(sessionID string, uuids []string) (map[string]struct{}, error) {
	held := map[string]struct{}{}
	if len(uuids) == 0 {
		return held, nil
	}
	err := s.readSession(sessionID, "looking up the records", func(c conn, sid int64) error {
		return c.query(`SELECT uuid FROM messages WHERE uuid = ANY($1::text[]) AND sid = $2`, []any{uuids, sid}, func(row []any) error {
			held[row[0].(string)] = struct{}{}
			return nil
		})
	})
	return held, err
}
