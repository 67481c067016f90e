// Package hosted is what a hosted agent (a bot answering in chat channels) keeps on its
// session beside the conversation: the manual history of a stateless responder, the
// session's stored status, the messages it missed since its last checkpoint, and the
// parsing of the keys that address its sessions.
//
// The checkpoint and SDK session id themselves are held by the live session.Session,
// which reads them when it opens; this package builds on them.
package hosted
