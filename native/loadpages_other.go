//go:build !linux

package native

// releaseLoadPages does nothing off Linux; loadpages_linux.go says what it does there.
func releaseLoadPages() {}
