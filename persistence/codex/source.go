package codex

import (
	"fmt"
	"slices"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session/blocks"
)

// source is an envelope's source: the rollout record it was read from.
type source struct {
	Format string          `json:"format"`
	Record json.RawMessage `json:"record"`
}

// sourceOf returns the envelope source of a rollout record whose members are members (see
// plainMembers), its payload replaced by payload unless that is nil: the bytes
// blocks.MustJSON writes for {"format": Format, "record": the record's decoded map}. The
// members are joined as they stand into one object that the encoder compacts and escapes
// in one pass, as it does each value of the map; ok is false if it rejects them.
func sourceOf(members []member, payload json.RawMessage) ([]byte, bool) {
	if payload != nil {
		members = replaced(members, "payload", payload)
	}
	out, err := json.Marshal(source{Format: Format, Record: joinMembers(members)})
	return out, err == nil
}

// replaced returns members, sorted, with the value of the member named key set to value,
// added if there is none.
func replaced(members []member, key string, value []byte) []member {
	i, found := slices.BinarySearchFunc(members, key, func(m member, k string) int {
		return compareKey(m.key, k)
	})
	if found {
		members[i].value = value
		return members
	}
	return slices.Insert(members, i, member{[]byte(key), value})
}

// compareKey orders a member's key against the key k.
func compareKey(key []byte, k string) int {
	switch s := string(key); {
	case s < k:
		return -1
	case s > k:
		return 1
	}
	return 0
}

// joinMembers writes members as one JSON object.
func joinMembers(members []member) []byte {
	n := 2
	for _, m := range members {
		n += len(m.key) + len(m.value) + 4
	}
	out := make([]byte, 0, n)
	out = append(out, '{')
	for i, m := range members {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, '"')
		out = append(out, m.key...)
		out = append(out, '"', ':')
		out = append(out, m.value...)
	}
	return append(out, '}')
}

// withoutPlain returns the JSON object obj without the named fields, its members sorted, as
// without does but with its values as they stand (sourceOf compacts them). It returns
// without's result for an object plainMembers declines.
func withoutPlain(obj json.RawMessage, names []string) json.RawMessage {
	members, ok := plainMembers(obj)
	if !ok {
		return without(obj, names)
	}
	members = slices.DeleteFunc(members, func(m member) bool {
		return slices.Contains(names, string(m.key))
	})
	return joinMembers(members)
}

// without returns the JSON object obj without the named fields.
func without(obj json.RawMessage, names []string) json.RawMessage {
	var fields map[string]json.RawMessage
	if json.Unmarshal(obj, &fields) != nil {
		return obj
	}
	for _, n := range names {
		delete(fields, n)
	}
	return blocks.MustJSON(fields)
}

// recordSource returns the envelope source of the rollout record text, whose members are
// members if plain (see plainMembers), its payload without the fields mapped if mapped is
// not nil. The record's decoded map, encoded, is the reference: it is what is written when
// plainMembers declined the record or the encoder rejects the members.
func recordSource(text []byte, members []member, plain bool, payload json.RawMessage, mapped *[]string) ([]byte, error) {
	if plain {
		var replacement json.RawMessage
		if mapped != nil {
			replacement = withoutPlain(payload, *mapped)
		}
		if out, ok := sourceOf(members, replacement); ok {
			return out, nil
		}
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(text, &fields); err != nil {
		return nil, fmt.Errorf("not a JSON object")
	}
	if mapped != nil {
		fields["payload"] = without(payload, *mapped)
	}
	return blocks.MustJSON(map[string]any{"format": Format, "record": fields}), nil
}
