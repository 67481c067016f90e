// Package transcript holds what the file formats of package persistence share: a file
// read into session Records, the damaged lines left out of it, a JSONL line reader that
// counts lines and bytes, and ids for records that have none.
package transcript
