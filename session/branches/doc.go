// Package branches works on a session's branches: it moves the head back to an earlier
// record (Rewind), copies the branch that ends at a record into a new session (Fork), and
// lays the records out as the tree their parentUuid links make, with the head and the
// branch that ends at it marked, for a history view.
//
// Reads of the conversation follow the branch at the head inside package session (tree.go,
// head.go); this package moves the head through Session.BeginHeadChange, under the
// session's lock, and opens a fork through Manager.Adopt.
package branches
