package postgres

import (
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// messageColumns are the columns of a message row m that messageOfRow reads, in its order.
const messageColumns = `m.seq, m.uuid, m.parent_uuid, m.type, m.role, m.turn, m.status, m.created_at,
	m.provider, m.request_id, m.meta, m.extra, m.is_sidechain, m.continues`

// messageColumnCount is how many columns messageColumns names: the index of the first
// column a query selects after them.
const messageColumnCount = 14

// messageOfRow is the message, without its blocks, of a row that begins with
// messageColumns, in session sessionID.
func messageOfRow(row []any, sessionID string) session.StoredMessage {
	return session.StoredMessage{
		Seq: row[0].(int64), UUID: row[1].(string), ParentUUID: row[2].(string), SessionID: sessionID,
		Type: row[3].(string), Role: row[4].(string), Turn: row[5].(int64), Status: row[6].(string),
		CreatedAt: time.UnixMilli(row[7].(int64)), Provider: row[8].(string), RequestID: row[9].(string),
		Meta: row[10].([]byte), Extra: row[11].([]byte), IsSidechain: row[12].(bool), Continues: row[13].(bool),
	}
}
