// Package bridge is the JavaScript-facing API of the addon: one Go function for each
// exported JS function. It decodes arguments, calls session and persistence, encodes
// results, and maps Go errors to JavaScript errors in exactly one place (errors.go).
package bridge
