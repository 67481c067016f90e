// Package aider reads aider's chat history, the Markdown file .aider.chat.history.md that
// aider appends to in a project's root: "# aider chat started at <time>" begins each run of
// aider (each becomes a session), "#### " lines are what the user typed, "> " lines are
// aider's own output (kept as records that are not messages; the model, token counts and
// costs it reports are read from them), and every other line is the model's answer. Lines
// are split into messages as aider's own --restore-chat-history splits them, but for one
// thing: aider drops every line that begins with "# ", and so loses the Markdown headings
// and the Python or shell comments of the answers' code; here only the start line is
// taken from the text.
package aider

// Format is the name of the format in envelopes' source and in the API.
const Format = "aider"

// FileName is the name aider gives its chat history.
const FileName = ".aider.chat.history.md"

// StartPrefix begins the line that starts each run of aider in the history.
const StartPrefix = "# aider chat started at"
