package codex

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
)

// contentBlocks maps the content items of a message: input_text and output_text become
// text blocks, input_image an image block; an item of another kind is kept verbatim.
func contentBlocks(items []json.RawMessage) ([]session.RecordBlock, error) {
	list := make([]session.RecordBlock, 0, len(items))
	for i, item := range items {
		var it struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			ImageURL string `json:"image_url"`
		}
		if err := json.Unmarshal(item, &it); err != nil {
			return nil, fmt.Errorf("payload.content[%d]: %v", i, err)
		}
		block := []byte(item)
		switch it.Type {
		case "input_text", "output_text":
			block = blocks.MustJSON(map[string]string{"type": blocks.BlockText, "text": it.Text})
		case "input_image":
			block = imageBlock(it.ImageURL)
		}
		if _, err := blocks.CheckBlock(block); err != nil {
			return nil, fmt.Errorf("payload.content[%d]: %v", i, err)
		}
		list = append(list, session.RecordBlock{JSON: block})
	}
	return list, nil
}

// imageBlock makes an image block of an image URL: a data URL's bytes as a base64 source,
// any other URL as a url source.
func imageBlock(url string) []byte {
	if rest, ok := strings.CutPrefix(url, "data:"); ok {
		if mediaType, data, ok := strings.Cut(rest, ";base64,"); ok {
			return blocks.MustJSON(map[string]any{"type": blocks.BlockImage,
				"source": map[string]string{"type": "base64", "media_type": mediaType, "data": data}})
		}
	}
	return blocks.MustJSON(map[string]any{"type": blocks.BlockImage, "source": map[string]string{"type": "url", "url": url}})
}

// toolUse makes the tool_use block of a function call. Its arguments are JSON text; when
// they are not a JSON object, the text is kept as raw_input and input is empty.
func toolUse(id, name string, arguments json.RawMessage) []byte {
	var text string
	if json.Unmarshal(arguments, &text) != nil {
		text = string(arguments)
	}
	input := json.RawMessage(bytes.TrimSpace([]byte(text)))
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	block := map[string]any{"type": blocks.BlockToolUse, "id": id, "name": name, "input": input}
	if input[0] != '{' || !json.Valid(input) {
		block["input"], block["raw_input"], block["input_error"] = json.RawMessage("{}"), text, "arguments are not a JSON object"
	}
	return blocks.MustJSON(block)
}

// freeformToolUse makes the tool_use block of a freeform (custom) tool call, such as
// apply_patch's: its input is text, not JSON, so it is kept verbatim as input.input, and
// "freeform": true says so, for the context builder to leave out and an export to give the
// text back as it came.
func freeformToolUse(id, name, input string) []byte {
	return blocks.MustJSON(map[string]any{"type": blocks.BlockToolUse, "id": id, "name": name,
		"input": map[string]string{"input": input}, "freeform": true})
}

// toolResult makes the tool_result block of a function or custom tool call's output, and
// the execution record when the output is the shell tool's {"output", "metadata":
// {exit_code, duration_seconds}}. An output given as an object {content, success} says
// whether it failed; one given as content items (input_text, input_image) becomes blocks.
func toolResult(callID string, output json.RawMessage) (block, execution []byte, err error) {
	result := map[string]any{"type": blocks.BlockToolResult, "tool_use_id": callID}
	var text string
	switch {
	case json.Unmarshal(output, &text) == nil:
		result["content"] = text
		execution = shellExecution(text)
	case bytes.HasPrefix(bytes.TrimSpace(output), []byte("[")):
		var items []json.RawMessage
		if err := json.Unmarshal(output, &items); err != nil {
			return nil, nil, fmt.Errorf("payload.output: %v", err)
		}
		list, err := contentBlocks(items)
		if err != nil {
			return nil, nil, err
		}
		content := make([]json.RawMessage, len(list))
		for i, b := range list {
			content[i] = b.JSON
		}
		result["content"] = content
	default:
		var obj struct {
			Content json.RawMessage `json:"content"`
			Success *bool           `json:"success"`
		}
		if json.Unmarshal(output, &obj) != nil || len(obj.Content) == 0 {
			return nil, nil, fmt.Errorf("payload.output must be a string, content items or {content, success}")
		}
		result["content"] = obj.Content
		if obj.Success != nil {
			result["is_error"] = !*obj.Success
		}
	}
	block = blocks.MustJSON(result)
	if _, err := blocks.CheckBlock(block); err != nil {
		return nil, nil, fmt.Errorf("payload.output: %v", err)
	}
	return block, execution, nil
}

// shellExecution reads the execution record out of the shell tool's output, or nil.
func shellExecution(output string) []byte {
	var shell struct {
		Output   *string `json:"output"`
		Metadata *struct {
			ExitCode        *int64   `json:"exit_code"`
			DurationSeconds *float64 `json:"duration_seconds"`
		} `json:"metadata"`
	}
	if json.Unmarshal([]byte(output), &shell) != nil || shell.Output == nil || shell.Metadata == nil {
		return nil
	}
	exec := map[string]any{"stdout": *shell.Output}
	if shell.Metadata.ExitCode != nil {
		exec["exitCode"] = *shell.Metadata.ExitCode
	}
	if shell.Metadata.DurationSeconds != nil {
		exec["durationMs"] = int64(*shell.Metadata.DurationSeconds * 1000)
	}
	return blocks.MustJSON(exec)
}
