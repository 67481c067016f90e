package aider

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

// history is a chat history as aider's InputOutput writes it: two runs, user input as
// "#### " lines with Markdown line breaks, aider's output as "> " lines, the answers as
// plain Markdown.
const history = `
# aider chat started at 2025-03-04 10:20:30

> /usr/bin/aider --model sonnet  
> Aider v0.75.1  
> Main model: anthropic/claude-3-7-sonnet-20250219 with diff edit format, infinite output  
> Git repo: .git with 12 files  

#### /add main.go  
> Added main.go to the chat  

#### fix the typo in main.go  
#### and say why  

The word "Helo" is misspelled.

main.go
` + "```go" + `
<<<<<<< SEARCH
	fmt.Println("Helo")
=======
	fmt.Println("Hello")
>>>>>>> REPLACE
` + "```" + `

> Tokens: 2.5k sent, 1.2k cache write, 300 received. Cost: $0.01 message, $0.01 session.  
> Applied edit to main.go  

# aider chat started at 2025-03-05 08:00:00

> Main model: gpt-4o with diff edit format  

#### hello  

Hi! How can I help?

> Tokens: 812 sent, 9 received. Cost: $0.0021 message, $0.0021 session.  
`

func TestAHistoryBecomesOneSessionARun(t *testing.T) {
	files, err := Read(strings.NewReader(history), "/home/u/proj/.aider.chat.history.md", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 {
		t.Fatalf("%d sessions, want 2", len(files))
	}
	var got []string
	for _, r := range files[0].Records {
		got = append(got, r.Type)
	}
	want := []string{"output", "command", "output", "user", "assistant", "output"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("records = %v\nwant %v", got, want)
	}
	if got := string(files[0].Records[3].Blocks[0].JSON); got != `{"text":"fix the typo in main.go\nand say why","type":"text"}` {
		t.Errorf("user message = %s", got)
	}
	answer := files[0].Records[4]
	if !strings.Contains(string(answer.Blocks[0].JSON), `\u003c\u003c\u003c\u003c\u003c\u003c\u003c SEARCH`) && !strings.Contains(string(answer.Blocks[0].JSON), "<<<<<<< SEARCH") {
		t.Errorf("answer = %s", answer.Blocks[0].JSON)
	}
	if answer.Usage == nil || *answer.Usage != (session.Usage{InputTokens: 2500, CacheCreationInputTokens: 1200, OutputTokens: 300}) {
		t.Errorf("usage = %+v", answer.Usage)
	}
	if string(answer.Meta) != `{"model":"anthropic/claude-3-7-sonnet-20250219","usage":{"input_tokens":2500,"output_tokens":300,"cache_read_input_tokens":0,"cache_creation_input_tokens":1200}}` {
		t.Errorf("meta = %s", answer.Meta)
	}
	info := files[0].Target.Info
	if info.Title != "fix the typo in main.go" || info.ProjectPath != "/home/u/proj" || info.Provider != "anthropic" || info.CreatedAt.Format("2006-01-02 15:04:05") != "2025-03-04 10:20:30" {
		t.Errorf("target = %+v", info)
	}
	second := files[1].Target.Info
	if second.ID == info.ID || second.Model != "gpt-4o" || second.Provider != "openai" || *files[1].Records[2].Usage != (session.Usage{InputTokens: 812, OutputTokens: 9}) {
		t.Errorf("second run = %+v", second)
	}
	again, _ := Read(strings.NewReader(history), "/home/u/proj/.aider.chat.history.md", nil)
	if again[0].Target.Info.ID != info.ID || again[0].Records[4].UUID != answer.UUID {
		t.Errorf("ids differ between two reads of one file")
	}
}

// TestCommentsAndHeadingsOfAnswersAreKept reads a run shaped as the real history of
// AbdulAlkawasmeh/metadata-aider (see test/real-files.json): aider 0.86's "Model:" line
// naming an OpenRouter model, a prompt of several "#### " lines with blank ones between,
// and an answer whose SEARCH/REPLACE code starts with a Python comment and a Markdown
// heading, lines that aider's own reader would drop.
func TestCommentsAndHeadingsOfAnswersAreKept(t *testing.T) {
	text := "\n# aider chat started at 2025-12-03 14:43:45\n\n" +
		"> Aider v0.86.1  \n> Model: openrouter/openai/gpt-4o-mini with diff edit format  \n\n" +
		"#### make the files:  \n####   \n#### \t-model.py  \n\n" +
		"src/model.py\n```python\n<<<<<<< SEARCH\n=======\n# This file will hold the model.\n>>>>>>> REPLACE\n```\n\n" +
		"README.md\n````markdown\n<<<<<<< SEARCH\n=======\n# IoT Model\n>>>>>>> REPLACE\n````\n\n" +
		"> Tokens: 10k sent, 412 received. Cost: $0.0018 message, $0.01 session.  \n"
	files, err := Read(strings.NewReader(text), "/p/"+FileName, nil)
	if err != nil || len(files) != 1 {
		t.Fatalf("Read = %d files, %v", len(files), err)
	}
	recs := files[0].Records
	var kinds []string
	for _, r := range recs {
		kinds = append(kinds, r.Type)
	}
	if !reflect.DeepEqual(kinds, []string{"output", "user", "assistant", "output"}) {
		t.Fatalf("records = %v", kinds)
	}
	if got := string(recs[1].Blocks[0].JSON); got != `{"text":"make the files:\n\n\t-model.py","type":"text"}` {
		t.Errorf("prompt = %s", got)
	}
	answer := string(recs[2].Blocks[0].JSON)
	for _, line := range []string{`# This file will hold the model.`, `# IoT Model`} {
		if !strings.Contains(answer, line) {
			t.Errorf("answer lost %q: %s", line, answer)
		}
	}
	if recs[2].Usage == nil || *recs[2].Usage != (session.Usage{InputTokens: 10000, OutputTokens: 412}) {
		t.Errorf("usage = %+v", recs[2].Usage)
	}
	if info := files[0].Target.Info; info.Model != "openrouter/openai/gpt-4o-mini" || info.Provider != "openai" {
		t.Errorf("model %q, provider %q", info.Model, info.Provider)
	}
}

// TestACommandIsNotAMessage reads "/code <ask>" as aider writes it (the history of
// AndrewJacop/Simple-Calulator, see test/real-files.json): the command, then what it sent
// as a message of its own. The command is a record that is not a message, so the question
// is asked once.
func TestACommandIsNotAMessage(t *testing.T) {
	text := "\n# aider chat started at 2025-05-04 17:02:36\n\n" +
		"#### /code add a dark mode switch  \n\n#### add a dark mode switch  \n\nOkay.\n\n" +
		"#### /commit the latest updates  \n> Commit c339495 aider: the latest updates  \n\n#### /help  \n"
	files, err := Read(strings.NewReader(text), "/p/"+FileName, nil)
	if err != nil || len(files) != 1 {
		t.Fatalf("Read = %d files, %v", len(files), err)
	}
	var got []string
	for _, r := range files[0].Records {
		got = append(got, r.Type+"/"+r.Role)
	}
	want := []string{"command/", "user/user", "assistant/assistant", "command/", "output/", "command/"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("records = %v\nwant %v", got, want)
	}
	if !strings.Contains(string(files[0].Records[0].Extra), `"text":"/code add a dark mode switch"`) {
		t.Errorf("the command's text = %s", files[0].Records[0].Extra)
	}
	if title := files[0].Target.Info.Title; title != "add a dark mode switch" {
		t.Errorf("title = %q", title)
	}
}
