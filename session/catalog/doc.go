// Package catalog is the store-wide catalogue of sessions: listing them, finding one by an
// id prefix, their details and usage stats (priced when prices are given), full-text search
// over every session's messages, and managing them (rename, archive, delete, move project).
//
// Its functions take the session.Manager whose store they read, and what can be computed
// from the stored records (details, usage by day, a project's session count) is computed
// here over the small store interfaces it declares (Listing, Searcher, UsageLog), once for
// every backend.
package catalog
