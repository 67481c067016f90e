// Package tokens counts what messages cost in a context: o200k_base tokens of what a
// message sends plus framing (tokens.go), sampled for large texts and calibrated per
// provider, with each message counted once as it ends (Counter) or, when a count is
// missing, by the next context build (CountMissing).
//
// Counts are stored as SetTokens ops through its Store, beside the messages.
package tokens
