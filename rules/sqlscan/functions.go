package sqlscan

import "sync"

// sqlWords are keywords that take parentheses (IN (…), EXISTS (…)): not calls.
var sqlWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"in": true, "exists": true, "values": true, "any": true, "all": true, "some": true, "over": true, "filter": true,
		"not": true, "and": true, "or": true, "as": true, "from": true, "join": true, "using": true, "on": true,
		"select": true, "where": true, "with": true, "recursive": true, "lateral": true, "case": true, "when": true,
		"then": true, "else": true, "into": true, "table": true, "union": true, "intersect": true, "except": true,
		"partition": true, "by": true, "within": true, "group": true, "order": true, "having": true, "limit": true,
		"offset": true, "returning": true, "set": true, "is": true, "like": true, "ilike": true, "between": true,
		"distinct": true, "array": true, "row": true, "window": true, "rows": true, "range": true, "key": true,
		"primary": true, "references": true, "unique": true, "check": true, "default": true, "index": true,
		"interval": true, "varchar": true, "char": true, "numeric": true, "decimal": true, "timestamp": true,
		"time": true, "float": true, "double": true, "precision": true, "int": true, "bigint": true, "integer": true,
		"cube": true, "rollup": true, "grouping": true, "sets": true, "tablesample": true, "only": true, "by_name": true,
	}
})

// safeFunctions are functions known to be free of side effects: aggregates,
// string, number, date, JSON, array and window functions of the common
// engines.
var safeFunctions = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, f := range []string{
		// aggregates and windows
		"count", "sum", "avg", "min", "max", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp",
		"array_agg", "string_agg", "group_concat", "listagg", "json_agg", "jsonb_agg", "json_object_agg", "jsonb_object_agg",
		"bool_and", "bool_or", "every", "bit_and", "bit_or", "percentile_cont", "percentile_disc", "mode", "median",
		"row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead", "first_value",
		"last_value", "nth_value", "approx_count_distinct", "count_if", "countif", "any_value", "arbitrary",
		// conditionals and types
		"coalesce", "nullif", "greatest", "least", "ifnull", "isnull", "nvl", "nvl2", "iif", "if", "decode", "cast",
		"try_cast", "convert", "to_char", "to_number", "to_date", "to_timestamp", "typeof", "pg_typeof",
		// strings
		"lower", "upper", "length", "char_length", "character_length", "octet_length", "bit_length", "substr",
		"substring", "trim", "ltrim", "rtrim", "btrim", "replace", "concat", "concat_ws", "left", "right", "lpad",
		"rpad", "position", "strpos", "instr", "locate", "split_part", "reverse", "repeat", "initcap", "format",
		"regexp_replace", "regexp_matches", "regexp_match", "regexp_like", "regexp_substr", "regexp_split_to_array",
		"regexp_split_to_table", "string_to_array", "array_to_string", "md5", "sha1", "sha2", "sha256", "encode",
		"decode", "ascii", "chr", "char", "quote_ident", "quote_literal", "quote_nullable", "translate", "soundex",
		"unaccent", "starts_with", "ends_with", "contains", "split", "to_hex", "hex", "unhex", "uuid", "gen_random_uuid",
		"uuid_generate_v4", "newid", "random", "rand",
		// numbers
		"abs", "ceil", "ceiling", "floor", "round", "trunc", "truncate", "mod", "power", "pow", "sqrt", "exp", "ln",
		"log", "log10", "sign", "pi", "degrees", "radians", "sin", "cos", "tan", "div", "width_bucket",
		// dates
		"now", "current_date", "current_time", "current_timestamp", "localtime", "localtimestamp", "date_trunc",
		"date_part", "extract", "age", "date", "datetime", "strftime", "julianday", "unixepoch", "date_add", "date_sub",
		"datediff", "dateadd", "timestampdiff", "timestampadd", "make_date", "make_timestamp", "make_interval",
		"to_timestamp", "from_unixtime", "unix_timestamp", "getdate", "getutcdate", "sysdate", "systimestamp",
		"curdate", "curtime", "utc_date", "utc_time", "utc_timestamp", "current_datetime", "date_format", "str_to_date",
		"to_char", "to_date", "to_days", "from_days", "weekofyear", "yearweek", "monthname", "dayname", "makedate",
		"year", "month", "day", "hour", "minute", "second", "week", "quarter", "dayofweek", "dayofmonth", "dayofyear",
		"last_day", "timezone", "generate_series", "format_timestamp", "parse_timestamp", "timestamp_trunc", "date_diff",
		// JSON and arrays
		"json_extract", "json_extract_path", "json_extract_path_text", "jsonb_extract_path", "jsonb_extract_path_text",
		"json_build_object", "jsonb_build_object", "json_build_array", "jsonb_build_array", "to_json", "to_jsonb",
		"json_array_length", "jsonb_array_length", "json_each", "jsonb_each", "json_each_text", "jsonb_each_text",
		"json_object_keys", "jsonb_object_keys", "jsonb_array_elements", "json_array_elements", "jsonb_array_elements_text",
		"json_typeof", "jsonb_typeof", "jsonb_set", "jsonb_pretty", "json_value", "json_query", "json_object",
		"json_array", "json_valid", "json_unquote", "json_contains", "json_keys", "json_length", "row_to_json",
		"array_length", "array_position", "array_append", "array_prepend", "array_cat", "array_remove", "cardinality",
		"unnest", "array", "array_contains", "element_at", "flatten", "parse_json", "try_parse_json", "get_path",
		// metadata reads
		"version", "current_user", "session_user", "current_schema", "current_database", "database", "schema",
		"user", "pg_size_pretty", "pg_total_relation_size", "pg_relation_size", "pg_table_size", "pg_indexes_size",
		"pg_database_size", "obj_description", "col_description", "format_type", "has_table_privilege",
		"pg_get_indexdef", "pg_get_viewdef", "pg_get_constraintdef", "pg_get_functiondef", "pg_get_expr",
		"pg_backend_pid", "inet_server_addr", "txid_current", "pg_postmaster_start_time", "to_regclass",
		"object_id", "db_name", "schema_name", "last_insert_rowid", "changes", "found_rows", "row_count",
		"st_distance", "st_contains", "st_intersects", "st_asgeojson", "st_x", "st_y", "st_point", "st_makepoint",
		"st_setsrid", "st_dwithin", "st_within", "st_area", "st_length", "st_buffer", "st_transform",
		"similarity", "levenshtein", "ts_rank", "to_tsvector", "to_tsquery", "plainto_tsquery", "websearch_to_tsquery",
		"ts_headline", "match", "against", "bm25", "cosine_distance", "l2_distance", "inner_product",
	} {
		m[f] = true
	}
	return m
})

// dangerousFunctions are functions with effects outside the query, and why.
var dangerousFunctions = map[string]string{
	"pg_terminate_backend":     "ends other sessions",
	"pg_cancel_backend":        "cancels other sessions' queries",
	"pg_reload_conf":           "reloads the server's configuration",
	"pg_rotate_logfile":        "rotates the server's log",
	"pg_read_file":             "reads a file on the database server",
	"pg_read_binary_file":      "reads a file on the database server",
	"pg_ls_dir":                "lists folders on the database server",
	"pg_stat_file":             "reads file metadata on the database server",
	"pg_file_write":            "writes a file on the database server",
	"lo_import":                "reads a server file into the database",
	"lo_export":                "writes a server file from the database",
	"lo_unlink":                "deletes large objects",
	"set_config":               "changes the session's configuration",
	"pg_sleep":                 "holds a connection (denial of service)",
	"pg_advisory_lock":         "takes a lock other sessions wait on",
	"pg_drop_replication_slot": "drops a replication slot",
	"pg_create_restore_point":  "writes to the write-ahead log",
	"load_extension":           "loads native code into the database",
	"load_file":                "reads a file on the database server",
	"sys_exec":                 "runs a program on the database server",
	"sys_eval":                 "runs a program on the database server",
	"openrowset":               "reads remote data or server files",
	"opendatasource":           "reads remote data",
	"openquery":                "runs a query on a linked server",
	"benchmark":                "burns the server's CPU (denial of service)",
	"sleep":                    "holds a connection (denial of service)",
	"writefile":                "writes a file (SQLite)",
	"readfile":                 "reads a file (SQLite)",
	"edit":                     "opens an editor (SQLite)",
	"http_get":                 "makes a network request from the database",
	"http_post":                "makes a network request from the database",
	"net.http_get":             "makes a network request from the database",
	"net.http_post":            "makes a network request from the database",
}
