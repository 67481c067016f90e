// Package branches shows a session's branches: its records as the tree their parentUuid
// links make, with the head and the branch that ends at it marked, for a history view.
//
// Moving the head (Session.Rewind) and copying a branch into a new session (Session.Fork)
// stay on the live session.Session, because they change what the conversation continues
// from under its lock; reads of the conversation follow the branch at the head (tree.go in
// package session).
package branches
