// Package rowvalue reads the values of a database row as the backends' statements hand
// them over (database/sql/driver.Value, and contextcache.DB's rows): text as string or
// []byte, NULL as nil.
package rowvalue

// Bytes returns a text or blob value as bytes; nil for NULL (or a value of another type).
func Bytes(v any) []byte {
	switch v := v.(type) {
	case []byte:
		return v
	case string:
		return []byte(v)
	}
	return nil
}
