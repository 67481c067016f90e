// Package migrate moves every session of one store into another (SQLite to PostgreSQL and
// back, or between two files): the records with their uuids, file snapshots, hosted-agent
// state, the head of a rewound session, archive state and the cached summaries and
// compactions of context building. It works over the store interfaces, so any pair of
// backends can be moved between.
//
// A move is resumable: records are matched by uuid (as an import matches them) and every
// other piece is put only when the target lacks it, so running it again after an
// interruption copies only what is missing and duplicates nothing.
package migrate
