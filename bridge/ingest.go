package bridge

import (
	"fmt"

	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

// Ingest is the hot path: one function per chunk type, taking plain strings and booleans
// (JSON-valued fields arrive serialised), so a text delta crosses as one string.
func init() {
	native.Register("ingestMessageStart", ingest(stream.ChunkMessageStart, optString(fieldID, "id"),
		optString(fieldModel, "model"), optString(fieldProvider, "provider"), optString(fieldRequestID, "requestId"),
		optJSON(fieldState, "state")))
	native.Register("ingestText", ingest(stream.ChunkText, reqString(fieldText, "text")))
	native.Register("ingestThinking", ingest(stream.ChunkThinking, reqString(fieldText, "thinking")))
	native.Register("ingestSignature", ingest(stream.ChunkSignature, reqString(fieldText, "signature")))
	native.Register("ingestRedactedThinking", ingest(stream.ChunkRedactedThinking, reqString(fieldText, "data")))
	native.Register("ingestToolUse", ingest(stream.ChunkToolUse, reqString(fieldID, "id"),
		reqString(fieldName, "name"), reqJSON(fieldJSON, "input")))
	native.Register("ingestToolUseStart", ingest(stream.ChunkToolUseStart, reqString(fieldID, "id"), reqString(fieldName, "name")))
	native.Register("ingestToolUseDelta", ingest(stream.ChunkToolUseDelta, reqString(fieldText, "partialJson")))
	native.Register("ingestToolResult", ingest(stream.ChunkToolResult, reqString(fieldToolUseID, "toolUseId"),
		reqJSON(fieldJSON, "content"), optBool(fieldIsError, "isError"), optJSON(fieldRaw, "raw")))
	native.Register("ingestDone", ingest(stream.ChunkDone, optString(fieldStopReason, "stopReason"),
		optString(fieldStopSequence, "stopSequence"), optJSON(fieldUsage, "usage"),
		optString(fieldID, "id"), optString(fieldModel, "model")))
	native.Register("ingestError", ingest(stream.ChunkError, reqString(fieldText, "message")))
	native.Register("rejectChunk", rejectChunk)
}

// field reads one chunk field from a JS argument into a Chunk.
type field func(c *native.Call, i int, kind stream.ChunkKind, chunk *stream.Chunk) error

// Where each field goes in a Chunk.
var (
	fieldText         = func(ch *stream.Chunk) *string { return &ch.Text }
	fieldID           = func(ch *stream.Chunk) *string { return &ch.ID }
	fieldName         = func(ch *stream.Chunk) *string { return &ch.Name }
	fieldModel        = func(ch *stream.Chunk) *string { return &ch.Model }
	fieldProvider     = func(ch *stream.Chunk) *string { return &ch.Provider }
	fieldRequestID    = func(ch *stream.Chunk) *string { return &ch.RequestID }
	fieldToolUseID    = func(ch *stream.Chunk) *string { return &ch.ToolUseID }
	fieldStopReason   = func(ch *stream.Chunk) *string { return &ch.StopReason }
	fieldStopSequence = func(ch *stream.Chunk) *string { return &ch.StopSequence }
	fieldJSON         = func(ch *stream.Chunk) *[]byte { return &ch.JSON }
	fieldState        = func(ch *stream.Chunk) *[]byte { return &ch.State }
	fieldRaw          = func(ch *stream.Chunk) *[]byte { return &ch.Raw }
	fieldUsage        = func(ch *stream.Chunk) *[]byte { return &ch.Usage }
	fieldIsError      = func(ch *stream.Chunk) *bool { return &ch.IsError }
)

// ingest returns the exported function ingest<Kind>(session, ...fields).
func ingest(kind stream.ChunkKind, fields ...field) native.Func {
	return func(c *native.Call) (native.Value, error) {
		s, err := sessionArg(c)
		if err != nil {
			return native.Value{}, err
		}
		chunk := stream.Chunk{Kind: kind}
		for i, f := range fields {
			if err := f(c, i+1, kind, &chunk); err != nil {
				return native.Value{}, err
			}
		}
		return c.Undefined(), s.Ingest(chunk)
	}
}

func invalid(kind stream.ChunkKind, name, must string) error {
	return fmt.Errorf("%w: %s chunk: field '%s' %s", session.ErrInvalidChunk, kind, name, must)
}

func reqString(to func(*stream.Chunk) *string, name string) field {
	return func(c *native.Call, i int, kind stream.ChunkKind, chunk *stream.Chunk) error {
		s, ok := c.ReadString(c.Arg(i))
		if !ok {
			return invalid(kind, name, "must be a string")
		}
		*to(chunk) = s
		return nil
	}
}

func optString(to func(*stream.Chunk) *string, name string) field {
	return func(c *native.Call, i int, kind stream.ChunkKind, chunk *stream.Chunk) error {
		v := c.Arg(i)
		if c.IsNullish(v) {
			return nil
		}
		s, ok := c.ReadString(v)
		if !ok {
			return invalid(kind, name, "must be a string when given")
		}
		*to(chunk) = s
		return nil
	}
}

// reqJSON reads a field the JS layer serialised with JSON.stringify; undefined means the
// chunk did not have it.
func reqJSON(to func(*stream.Chunk) *[]byte, name string) field {
	return func(c *native.Call, i int, kind stream.ChunkKind, chunk *stream.Chunk) error {
		b, ok := c.ReadBytes(c.Arg(i))
		if !ok {
			return invalid(kind, name, "is required")
		}
		*to(chunk) = b
		return nil
	}
}

func optJSON(to func(*stream.Chunk) *[]byte, name string) field {
	return func(c *native.Call, i int, kind stream.ChunkKind, chunk *stream.Chunk) error {
		v := c.Arg(i)
		if c.IsNullish(v) {
			return nil
		}
		b, ok := c.ReadBytes(v)
		if !ok {
			return invalid(kind, name, "must be JSON-serialisable when given")
		}
		if string(b) != "null" {
			*to(chunk) = b
		}
		return nil
	}
}

func optBool(to func(*stream.Chunk) *bool, name string) field {
	return func(c *native.Call, i int, kind stream.ChunkKind, chunk *stream.Chunk) error {
		v := c.Arg(i)
		if c.IsNullish(v) {
			return nil
		}
		b, ok := c.ReadBool(v)
		if !ok {
			return invalid(kind, name, "must be a boolean when given")
		}
		*to(chunk) = b
		return nil
	}
}

// rejectChunk(type) throws INVALID_CHUNK for a chunk whose type the JS layer does not
// know, so that every chunk error is made in one place.
func rejectChunk(c *native.Call) (native.Value, error) {
	typ, _ := c.ReadString(c.Arg(0))
	return native.Value{}, fmt.Errorf("%w: unknown chunk type %q; expected one of message_start, text, thinking, signature, redacted_thinking, tool_use, tool_use_start, tool_use_delta, tool_result, done, error, block, block_start, block_fields", session.ErrInvalidChunk, typ)
}
