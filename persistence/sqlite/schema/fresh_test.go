package schema

import (
	"bytes"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateFreshSchema = flag.Bool("update-fresh-schema", false, "write fresh_gen.go from the migrations")

const freshSchemaFile = "fresh_gen.go"

// TestFreshSchemaIsTheMigrations builds one store by the migrations and one by the fresh
// path and requires the same database of them: schema, pragmas and every row. It also
// requires fresh_gen.go to be what the migrations generate today, so that adding a
// migration without running `go generate ./persistence/sqlite/schema` fails here (a new store
// would still be right, built by the migrations, only slower).
func TestFreshSchemaIsTheMigrations(t *testing.T) {
	dir := t.TempDir()
	byMigrations := filepath.Join(dir, "migrations.db")
	buildSchema(t, byMigrations, freshDump{})
	generated := generateFreshSchema(t, rawDB(t, byMigrations))

	if *updateFreshSchema {
		if err := os.WriteFile(freshSchemaFile, generated, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s; run the test again without -update-fresh-schema", freshSchemaFile)
		return
	}
	if current, err := os.ReadFile(freshSchemaFile); err != nil || !bytes.Equal(current, generated) {
		t.Fatalf("%s is not what the migrations generate (err %v): run `go generate ./persistence/sqlite/schema`", freshSchemaFile, err)
	}
	if !freshSchema.fits(migrations) {
		t.Fatal("freshSchema does not fit the migrations, though its file is up to date")
	}

	fresh := filepath.Join(dir, "fresh.db")
	buildSchema(t, fresh, freshSchema)
	want, got := describeDatabase(t, rawDB(t, byMigrations)), describeDatabase(t, rawDB(t, fresh))
	if want != got {
		t.Fatalf("the fresh schema differs from the migrations' (run `go generate ./persistence/sqlite/schema`):\n%s",
			firstDifference(want, got))
	}
	if !strings.Contains(got, fmt.Sprintf("schema_migrations row %d|", migrations[len(migrations)-1].version)) {
		t.Fatalf("the fresh path did not record the migrations:\n%s", got)
	}
}

// TestFreshSchemaComparisonSeesADifference checks the comparison itself: a fresh schema
// short of one index, or with the full-text index's state as its CREATE alone leaves it,
// is told apart from the migrations'.
func TestFreshSchemaComparisonSeesADifference(t *testing.T) {
	dir := t.TempDir()
	byMigrations := filepath.Join(dir, "migrations.db")
	buildSchema(t, byMigrations, freshDump{})
	want := describeDatabase(t, rawDB(t, byMigrations))
	for name, leaveOut := range map[string]string{
		"an index":                     "CREATE INDEX sessions_by_update",
		"a full-text structure record": `INSERT OR REPLACE INTO "message_search_data" VALUES (1,`,
	} {
		short := freshDump{migrations: freshSchema.migrations}
		for _, stmt := range freshSchema.statements {
			if !strings.HasPrefix(stmt, leaveOut) {
				short.statements = append(short.statements, stmt)
			}
		}
		if len(short.statements) != len(freshSchema.statements)-1 {
			t.Fatalf("%s: %q is not one statement of the fresh schema", name, leaveOut)
		}
		path := filepath.Join(dir, name+".db")
		buildSchema(t, path, short)
		if got := describeDatabase(t, rawDB(t, path)); got == want {
			t.Errorf("a fresh schema without %s compares equal to the migrations'", name)
		}
	}
}

// TestFreshSchemaStopsFittingWhenAMigrationIsAdded checks that the dump is not used for
// migrations it was not generated from: a new store then gets the new migration too.
func TestFreshSchemaStopsFittingWhenAMigrationIsAdded(t *testing.T) {
	saved := migrations
	t.Cleanup(func() { migrations = saved })
	migrations = append(append([]migration(nil), saved...), migration{
		saved[len(saved)-1].version + 1, "a column added after the dump", []string{`ALTER TABLE sessions ADD COLUMN later INTEGER`}, nil})
	if freshSchema.fits(migrations) {
		t.Fatal("the dump fits migrations it was not generated from")
	}
	path := filepath.Join(t.TempDir(), "sessions.db")
	buildSchema(t, path, freshSchema)
	db := rawDB(t, path)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM pragma_table_info('sessions') WHERE name = 'later'`); n != 1 {
		t.Fatal("the added migration was not applied to a new store")
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM schema_migrations`); n != int64(len(migrations)) {
		t.Fatalf("%d migrations recorded, want %d", n, len(migrations))
	}
}

// buildSchema creates the file at path and migrates it with fresh.
func buildSchema(t *testing.T, path string, fresh freshDump) {
	t.Helper()
	c := openConn(t, path)
	if err := migrateWith(c, fresh); err != nil {
		t.Fatal(err)
	}
}

// generateFreshSchema returns the source of fresh_gen.go for the database that
// db holds, built by the migrations: its objects' SQL in the order SQLite created them
// (less what SQLite makes itself: automatic indexes, sqlite_ tables, a virtual table's
// shadow tables), then an INSERT for each row a migration left, shadow tables' included,
// other than the migrations' own records, which createFresh writes.
func generateFreshSchema(t *testing.T, db *sql.DB) []byte {
	t.Helper()
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by TestFreshSchemaIsTheMigrations (go generate ./persistence/sqlite/schema); DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package schema\n\n")
	fmt.Fprintf(&b, "// freshSchema is the schema migrations 1 to %d build on an empty database; see freshDump.\n", migrations[len(migrations)-1].version)
	fmt.Fprintf(&b, "var freshSchema = freshDump{\n\tmigrations: %q,\n\tstatements: []string{\n", migrationsFingerprint(migrations))
	shadow := map[string]bool{}
	for _, name := range queryStrings(t, db, `SELECT name FROM pragma_table_list WHERE type = 'shadow'`) {
		shadow[name] = true
	}
	var tables []string
	rows, err := db.Query(`SELECT type, name, sql FROM sqlite_master
		WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY rowid`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var typ, name, stmt string
		if err := rows.Scan(&typ, &name, &stmt); err != nil {
			t.Fatal(err)
		}
		if typ == "table" && name != "schema_migrations" && !strings.HasPrefix(stmt, "CREATE VIRTUAL") {
			tables = append(tables, name)
		}
		if !shadow[name] {
			fmt.Fprintf(&b, "\t\t%s,\n", goString(stmt))
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for _, table := range tables {
		for _, insert := range seedInserts(t, db, table, shadow[table]) {
			fmt.Fprintf(&b, "\t\t%s,\n", goString(insert))
		}
	}
	b.WriteString("\t},\n}\n")
	return b.Bytes()
}

// seedInserts returns an INSERT statement for each row of table, its values quoted by
// SQLite. A shadow table's rows replace those its virtual table wrote when it was created:
// a migration's commands to a full-text index (such as 'rebuild') leave its own.
func seedInserts(t *testing.T, db *sql.DB, table string, shadow bool) []string {
	t.Helper()
	columns := queryStrings(t, db, `SELECT name FROM pragma_table_info(?) ORDER BY cid`, table)
	quoted := make([]string, len(columns))
	for i, c := range columns {
		quoted[i] = fmt.Sprintf(`quote("%s")`, c)
	}
	order := "rowid" // so that the rows get the same rowids again
	if queryInt(t, db, `SELECT wr FROM pragma_table_list WHERE name = ?`, table) == 1 {
		order = "1" // WITHOUT ROWID
	}
	values := queryStrings(t, db, fmt.Sprintf(`SELECT %s FROM "%s" ORDER BY %s`, strings.Join(quoted, ` || ', ' || `), table, order))
	inserts := make([]string, len(values))
	for i, v := range values {
		verb := "INSERT"
		if shadow {
			verb = "INSERT OR REPLACE"
		}
		inserts[i] = fmt.Sprintf(`%s INTO "%s" VALUES (%s)`, verb, table, v)
	}
	return inserts
}

// goString writes s as a Go raw string when it can be one, for a file a reviewer reads.
func goString(s string) string {
	if strings.Contains(s, "`") || strings.Contains(s, "\r") {
		return fmt.Sprintf("%q", s)
	}
	return "`" + s + "`"
}

// describeDatabase renders what two databases built differently must share: every object
// of sqlite_master, the pragmas a store's file format depends on, and every row of every
// table (shadow tables included), the migrations' records without the time they were
// applied.
func describeDatabase(t *testing.T, db *sql.DB) string {
	t.Helper()
	var lines []string
	lines = append(lines, queryStrings(t, db, `SELECT 'object ' || type || ' ' || name || ' on ' || tbl_name || ': ' || ifnull(sql, '(made by SQLite)')
		FROM sqlite_master ORDER BY type, name`)...)
	for _, pragma := range []string{"user_version", "application_id", "journal_mode", "page_size", "auto_vacuum", "encoding", "freelist_count"} {
		lines = append(lines, queryStrings(t, db, fmt.Sprintf(`SELECT 'pragma %s = ' || %s FROM pragma_%s`, pragma, pragma, pragma))...)
	}
	for _, table := range queryStrings(t, db, `SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name`) {
		columns := queryStrings(t, db, `SELECT name FROM pragma_table_info(?) WHERE ? != 'schema_migrations' OR name != 'applied_at' ORDER BY cid`, table, table)
		quoted := make([]string, len(columns))
		for i, c := range columns {
			quoted[i] = fmt.Sprintf(`quote("%s")`, c)
		}
		for _, row := range queryStrings(t, db, fmt.Sprintf(`SELECT %s FROM "%s" ORDER BY 1`, strings.Join(quoted, ` || '|' || `), table)) {
			lines = append(lines, fmt.Sprintf("%s row %s", table, row))
		}
	}
	return strings.Join(lines, "\n")
}

// firstDifference shows the first line where want and got part, with its neighbours.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		if i >= len(w) || i >= len(g) || w[i] != g[i] {
			at := func(lines []string) string {
				if i < len(lines) {
					return lines[i]
				}
				return "(nothing)"
			}
			return fmt.Sprintf("line %d\n  migrations: %s\n  fresh:      %s", i+1, at(w), at(g))
		}
	}
	return "(no difference)"
}

func queryStrings(t *testing.T, db *sql.DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.Query(query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
