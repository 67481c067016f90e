package session

import (
	"strconv"
	"time"

	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// StoredMessage is a message as a Store gives it back: its envelope fields, its message
// fields as one JSON object, and its blocks as the JSON they were stored as.
type StoredMessage struct {
	Seq        int64
	UUID       string
	ParentUUID string
	SessionID  string
	Type       string
	Role       string
	Turn       int64
	Status     string
	CreatedAt  time.Time
	Provider   string
	RequestID  string
	// IsSidechain marks a subagent's message; Continues a record that continues the
	// previous record's message. See MessageHeader.
	IsSidechain bool
	Continues   bool
	Meta        []byte // JSON object: id, model, stop_reason, stop_sequence, usage, …
	Extra       []byte // JSON object: envelope extras such as toolUseResults and error
	Blocks      [][]byte

	// Encoded is set beside Seq, Role, IsSidechain and Continues (the others are left
	// empty) when a store hands out a message it keeps encoded: its envelope JSON, ASCII
	// only (see jsonenc.AppendASCII), in pieces to be joined. The message object begins at
	// Encoded[0][MessageAt] and ends one byte before the envelope's end.
	Encoded   [][]byte
	MessageAt int
}

// IsConversation reports whether m is part of the main conversation that messages() gives
// the model: a message (a record that is not one, such as an imported summary, has no role)
// that is not on a sidechain and is not an empty interrupted one.
func (m *StoredMessage) IsConversation() bool {
	return m.Role != "" && !m.IsSidechain && !m.IsEmptyInterrupted()
}

// IsEmptyInterrupted reports whether m was cut off (by a kill, a close or a new prompt)
// before any of its blocks was recorded. The conversation never had it, so reads leave it
// out; the stored record stays, as every record does.
func (m *StoredMessage) IsEmptyInterrupted() bool {
	return m.Status == MessageInterrupted && len(m.Blocks) == 0 && m.Encoded == nil
}

// appendMessageStart appends an API message up to the end of m's content blocks, so that
// the blocks of records that continue it can follow.
func appendMessageStart(buf []byte, m *StoredMessage) []byte {
	buf = append(buf, `{"role":`...)
	buf = jsonenc.AppendString(buf, m.Role)
	buf = append(buf, `,"content":[`...)
	return appendBlocks(buf, m, false)
}

// appendBlocks appends m's blocks, after a comma when more precede them.
func appendBlocks(buf []byte, m *StoredMessage, more bool) []byte {
	for _, b := range m.Blocks {
		if more {
			buf = append(buf, ',')
		}
		more = true
		buf = append(buf, b...)
	}
	return buf
}

// appendMessageEnd closes the content of an API message and appends its fields.
func appendMessageEnd(buf, meta []byte) []byte {
	buf = append(buf, ']')
	buf = jsonenc.AppendObjectFields(buf, meta)
	return append(buf, '}')
}

// AppendEnvelope appends m with its envelope, {uuid, parentUuid, …, message}, to buf. A
// record that is not a message has no "message".
func AppendEnvelope(buf []byte, m *StoredMessage) []byte {
	if m.Role == "" {
		return append(appendEnvelopeFields(buf, m), '}')
	}
	buf, _ = AppendEnvelopeHead(buf, m)
	buf = appendBlocks(buf, m, false)
	return append(AppendMessageTail(buf, m), '}')
}

// AppendEnvelopeHead appends the envelope of m, a message, up to the opening of its content
// array, and returns where in buf its message object begins. The blocks, comma separated,
// then AppendMessageTail and a closing brace complete it.
func AppendEnvelopeHead(buf []byte, m *StoredMessage) ([]byte, int) {
	buf = append(appendEnvelopeFields(buf, m), `,"message":`...)
	at := len(buf)
	return appendMessageStart(buf, &StoredMessage{Role: m.Role}), at
}

// AppendMessageTail closes m's content array and message, its meta fields included.
func AppendMessageTail(buf []byte, m *StoredMessage) []byte {
	return appendMessageEnd(buf, m.Meta)
}

// AppendEnvelopeFields appends m's envelope without its message: {uuid, …, turn, extras}.
func AppendEnvelopeFields(buf []byte, m *StoredMessage) []byte {
	return append(appendEnvelopeFields(buf, m), '}')
}

// appendEnvelopeFields appends the envelope's fields but the message, unclosed.
func appendEnvelopeFields(buf []byte, m *StoredMessage) []byte {
	buf = append(buf, `{"uuid":`...)
	buf = jsonenc.AppendString(buf, m.UUID)
	buf = append(buf, `,"parentUuid":`...)
	if m.ParentUUID == "" {
		buf = append(buf, "null"...)
	} else {
		buf = jsonenc.AppendString(buf, m.ParentUUID)
	}
	buf = append(buf, `,"sessionId":`...)
	buf = jsonenc.AppendString(buf, m.SessionID)
	buf = append(buf, `,"timestamp":`...)
	buf = jsonenc.AppendString(buf, jsonenc.FormatTime(m.CreatedAt))
	buf = append(buf, `,"type":`...)
	buf = jsonenc.AppendString(buf, m.Type)
	buf = appendOptionalString(buf, "provider", m.Provider)
	buf = appendOptionalString(buf, "requestId", m.RequestID)
	buf = append(buf, `,"status":`...)
	buf = jsonenc.AppendString(buf, m.Status)
	buf = append(buf, `,"turn":`...)
	buf = strconv.AppendInt(buf, m.Turn, 10)
	buf = strconv.AppendBool(append(buf, `,"isSidechain":`...), m.IsSidechain)
	if m.Continues {
		buf = append(buf, `,"continuesPrevious":true`...)
	}
	return jsonenc.AppendObjectFields(buf, m.Extra)
}

// AppendEncoded appends a message a store kept encoded (m.Encoded): with its envelope, or
// only its message object.
func AppendEncoded(buf []byte, m *StoredMessage, withEnvelope bool) []byte {
	parts := m.Encoded
	if withEnvelope {
		for _, p := range parts {
			buf = append(buf, p...)
		}
		return buf
	}
	last := len(parts) - 1
	for i, p := range parts {
		if i == 0 {
			p = p[m.MessageAt:]
		}
		if i == last {
			p = p[:len(p)-1]
		}
		buf = append(buf, p...)
	}
	return buf
}

func appendOptionalString(buf []byte, name, value string) []byte {
	if value == "" {
		return buf
	}
	buf = append(buf, ',', '"')
	buf = append(buf, name...)
	buf = append(buf, '"', ':')
	return jsonenc.AppendString(buf, value)
}
