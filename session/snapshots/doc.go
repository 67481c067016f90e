// Package snapshots takes file-history snapshots of the files an agent works on and
// restores them, inside a folder it never leaves (paths.go), as records of a session.
//
// It is the one place sessionkeep touches files other than through its store: Take reads
// files into a snapshot of a message, List lists a session's snapshots, and Restore writes
// the files back as they were at a message of its branch.
package snapshots
