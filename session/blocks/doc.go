// Package blocks is what a content block is, apart from any session: the block types
// sessionkeep knows, the fields each must have (CheckBlock), the JSON shapes the streaming
// assembler writes, a block's text for people (BlocksText) and the fields the Messages API
// takes of each type (api_blocks.go).
//
// It is where a new content type starts, and it imports nothing of sessionkeep's but
// package jsonenc, so session and every package above it can use it.
package blocks
