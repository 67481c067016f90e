package gemini

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// logs is a logs.json as Gemini CLI's Logger writes it (an indented array, key order as
// its LogEntry): two sessions of one project, the first of which has a chat file too.
const logs = `[
  {
    "sessionId": "d33523c8-52e8-42fb-84d2-7212bf063d91",
    "messageId": 0,
    "type": "user",
    "message": "what does this repo do?",
    "timestamp": "2025-12-08T14:04:16.711Z"
  },
  {
    "sessionId": "1c469382-d661-4048-8d37-7b87230a24bb",
    "messageId": 0,
    "type": "user",
    "message": "/compress",
    "timestamp": "2025-12-17T11:05:27.946Z"
  },
  {
    "sessionId": "1c469382-d661-4048-8d37-7b87230a24bb",
    "messageId": 1,
    "type": "user",
    "message": "add a test for the parser",
    "timestamp": "2025-12-17T11:06:02.100Z"
  },
  "not an entry"
]`

func TestLogsAddOnlyTheSessionsNoChatFileHolds(t *testing.T) {
	project := filepath.Join(t.TempDir(), ".gemini", "tmp", "a33c3345")
	chats := filepath.Join(project, "chats")
	if err := os.MkdirAll(chats, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(project, ".project_root"), []byte("/w/parser\n"), 0o644)
	chat := `{"sessionId":"d33523c8-52e8-42fb-84d2-7212bf063d91","projectHash":"a33c3345","startTime":"2025-12-08T14:04:16.000Z"}` + "\n"
	os.WriteFile(filepath.Join(chats, "session-2025-12-08T14-04-d33523c8.jsonl"), []byte(chat), 0o644)
	path := filepath.Join(project, LogsName)

	files, err := ReadLogs(strings.NewReader(logs), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 {
		t.Fatalf("%d sessions, want only the one without a chat file", len(files))
	}
	f := files[0]
	if len(f.Skipped) != 1 || f.Skipped[0].Line != 4 {
		t.Errorf("skipped = %+v", f.Skipped)
	}
	var kinds []string
	for _, r := range f.Records {
		kinds = append(kinds, r.Type+"/"+r.Role)
	}
	if !reflect.DeepEqual(kinds, []string{"command/", "user/user"}) {
		t.Errorf("records = %v", kinds)
	}
	if got := string(f.Records[1].Blocks[0].JSON); got != `{"text":"add a test for the parser","type":"text"}` {
		t.Errorf("prompt = %s", got)
	}
	info := f.Target.Info
	if info.ID != "1c469382-d661-4048-8d37-7b87230a24bb" || info.Title != "add a test for the parser" || info.ProjectPath != "/w/parser" ||
		info.CreatedAt.Format("15:04:05.000") != "11:05:27.946" || info.Provider != Provider {
		t.Errorf("target = %+v", info)
	}
	again, _ := ReadLogs(strings.NewReader(logs), path, nil)
	if again[0].Records[1].UUID != f.Records[1].UUID {
		t.Error("ids differ between two reads of one file")
	}

	os.Remove(filepath.Join(chats, "session-2025-12-08T14-04-d33523c8.jsonl"))
	without, _ := ReadLogs(strings.NewReader(logs), path, nil)
	if len(without) != 2 || without[0].Target.Info.Title != "what does this repo do?" {
		t.Errorf("without its chat file the first session is read from the log: %d sessions", len(without))
	}
}

func TestLogsThatAreNotAnArrayAreAnError(t *testing.T) {
	if _, err := ReadLogs(strings.NewReader(`{"level":"info"}`), "/x/"+LogsName, nil); err == nil || !strings.Contains(err.Error(), "logs.json") {
		t.Errorf("err = %v", err)
	}
}
