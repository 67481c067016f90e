package searchtext

import (
	"github.com/goccy/go-json"

	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
)

// OfBody returns the text a stored message body (persistence/msgbody) is searched by, nil
// when it has none: the searched text of each of the body's content blocks, joined by
// spaces. A body that is not JSON, packed or plain, has no text.
//
// An index that deletes a row by the text it gives for it then (SQLite's external-content
// FTS5) needs OfBody to give the same text for the same body for as long as the index
// holds it: a change to what it returns needs a migration that re-indexes the bodies.
func OfBody(stored []byte) []byte {
	body, err := bodycodec.Unpack(nil, stored)
	if err != nil {
		return nil
	}
	var b struct {
		Message struct {
			Content []Block `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(body, &b) != nil {
		return nil
	}
	var text []byte
	for i := range b.Message.Content {
		text = b.Message.Content[i].AppendText(text)
	}
	return text
}
