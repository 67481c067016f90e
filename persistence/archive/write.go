package archive

import (
	"bufio"
	"io"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
)

// WriteJSONL writes a session as JSONL: the header line, then one envelope a line.
func WriteJSONL(w io.Writer, st session.SessionState, scan session.Scan) error {
	bw := bufio.NewWriterSize(w, 64*1024)
	buf := header(st)
	buf = append(buf, '}', '\n')
	if _, err := bw.Write(buf); err != nil {
		return err
	}
	err := scan(func(m *session.StoredMessage) error {
		buf = session.AppendEnvelope(buf[:0], m)
		buf = append(buf, '\n')
		_, err := bw.Write(buf)
		return err
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}

// WriteJSON writes a session as one JSON document: the header's fields and "envelopes".
func WriteJSON(w io.Writer, st session.SessionState, scan session.Scan) error {
	bw := bufio.NewWriterSize(w, 64*1024)
	buf := append(header(st), `,"envelopes":[`...)
	if _, err := bw.Write(buf); err != nil {
		return err
	}
	first := true
	err := scan(func(m *session.StoredMessage) error {
		buf = buf[:0]
		if !first {
			buf = append(buf, ',', '\n')
		}
		first = false
		buf = session.AppendEnvelope(buf, m)
		_, err := bw.Write(buf)
		return err
	})
	if err != nil {
		return err
	}
	if _, err := bw.WriteString("]}\n"); err != nil {
		return err
	}
	return bw.Flush()
}

// header returns the header object, not yet closed: format, version, and the session's
// listing with its token tracker.
func header(st session.SessionState) []byte {
	info, _ := json.Marshal(st.Info) // a listing always encodes
	tracker, _ := json.Marshal(st.Tracker)
	buf := append([]byte(`{"format":"`+Format+`","version":1,"session":`), info[:len(info)-1]...)
	buf = append(buf, `,"tokenTracker":`...)
	buf = append(buf, tracker...)
	return append(buf, '}')
}
