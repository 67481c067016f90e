package postgres

// planGeneric is the setting, for the rest of its transaction, that has the server run a
// prepared statement with its generic plan, planned once for the connection and kept, from
// its first run. Left to itself PostgreSQL plans each of a statement's first five runs
// afresh for its values (a custom plan), and keeps doing so for good when the generic plan's
// estimate costs more, as it does for the read of a range of messages (the tail, a
// restore): about 0.5 ms of planning a run for the open's load, its scan for the last
// turn's calls and the tail each, which is most of what a fresh process's first reads cost
// beyond its later ones (bench/README.md, issue 30 round 8). The reads it is set for find
// their rows by a session's id and a range of its seqs through the primary key, the plan
// the values would give anyway. A statement that is not prepared (default_query_exec_mode
// exec or simple_protocol, behind a pooler) is planned for its values whatever the setting.
var planGeneric = forTransaction(genericPlan)

// genericPlan is planGeneric's setting, also part of readInIndexOrder.
var genericPlan = setting{"plan_cache_mode", "force_generic_plan"}
