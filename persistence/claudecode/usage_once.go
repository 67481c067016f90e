package claudecode

import "github.com/sessionkeep/sessionkeep/session/importing"

// responseKey names the API response an assistant record is part of: its message id and
// the request id Claude Code writes beside it. It is "" when the record names neither.
func responseKey(r *importing.Record, info *recordInfo) string {
	if info.messageID == "" && r.RequestID == "" {
		return ""
	}
	return info.messageID + "\x00" + r.RequestID
}

// countUsageOnce keeps the usage of each API response on one record of the file, the last
// that carries it, and takes it off every other. Claude Code writes a response's lines
// again under new uuids after some events (the same message.id and requestId, the same
// usage), and writes a tool's result between two lines of the response that called it;
// each of those copies would otherwise count the response's tokens once more.
func countUsageOnce(recs []importing.Record, infos []recordInfo) {
	last := map[string]int{}
	for i := range recs {
		if key := responseKey(&recs[i], &infos[i]); key != "" && recs[i].Usage != nil {
			last[key] = i
		}
	}
	for i := range recs {
		if key := responseKey(&recs[i], &infos[i]); key != "" && recs[i].Usage != nil && last[key] != i {
			recs[i].Usage = nil
		}
	}
}
