// Package jsonenc appends JSON to a byte slice by hand, without reflection: strings as
// ASCII-only JSON (from UTF-8 or from JavaScript's UTF-16 code units), timestamps, the
// members of one object into another, and the large strings JavaScript hands over apart
// from their JSON, spliced back into it (LargeStrings).
//
// It serves the hot paths that encode messages, envelopes and listings for JavaScript, and
// imports nothing of sessionkeep's.
package jsonenc
