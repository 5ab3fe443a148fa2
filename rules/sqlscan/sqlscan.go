// Package sqlscan reads SQL the way a reviewer does: every statement of a
// string, with comments (also comments used as whitespace) removed, quoting
// respected and case folded, and says what it would do. A SELECT counts as
// read-only only when every function it calls is known to be free of side
// effects.
package sqlscan

import (
	"encoding/hex"
	"regexp"
	"strings"
	"sync"
)

// Verdict is what a SQL string would do.
type Verdict struct {
	// Dangers are clear harms (DROP, TRUNCATE, DELETE or UPDATE of every row,
	// GRANT, running programs, reading server files); empty when none.
	Dangers []string
	// Unknown lists what keeps the string from being read-only without being
	// a clear harm (writes with a WHERE, unknown functions, dynamic SQL…).
	Unknown []string
	// Statements is the number of statements.
	Statements int
	// Files are the database files the statements open (SQLite's ATTACH
	// DATABASE 'path'), for the caller to classify.
	Files []string
}

// ReadOnly reports a string of statements that only read.
func (v Verdict) ReadOnly() bool {
	return len(v.Dangers) == 0 && len(v.Unknown) == 0 && v.Statements > 0
}

// LooksLikeSQL reports whether s starts (after comments) with a SQL verb.
func LooksLikeSQL(s string) bool {
	stmts := Statements(s)
	if len(stmts) == 0 {
		return false
	}
	first, _, _ := strings.Cut(stmts[0], " ")
	return sqlVerbs[first]
}

var sqlVerbs = map[string]bool{"select": true, "with": true, "insert": true, "update": true, "delete": true,
	"drop": true, "truncate": true, "alter": true, "create": true, "grant": true, "revoke": true, "merge": true,
	"replace": true, "upsert": true, "copy": true, "explain": true, "show": true, "describe": true, "desc": true,
	"exec": true, "execute": true, "call": true, "do": true, "set": true, "use": true, "begin": true, "commit": true,
	"rollback": true, "vacuum": true, "analyze": true, "reindex": true, "cluster": true, "lock": true, "load": true,
	"attach": true, "detach": true, "pragma": true, "prepare": true, "declare": true, "values": true, "table": true,
	"rename": true, "comment": true, "refresh": true, "optimize": true, "kill": true, "shutdown": true, "backup": true,
	"restore": true, "unload": true, "bulk": true}

// Statements splits s into normalized statements: comments removed, string
// literals replaced by ” (their text is data, not SQL), whitespace
// collapsed, lower case.
func Statements(s string) []string {
	var b strings.Builder
	var out []string
	executable := 0 // MySQL /*! … */ comments open
	flush := func() {
		st := strings.Join(strings.Fields(b.String()), " ")
		if st != "" {
			out = append(out, st)
		}
		b.Reset()
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '-' && i+1 < len(s) && s[i+1] == '-', c == '#' && (i == 0 || s[i-1] == '\n' || s[i-1] == ' '):
			for i < len(s) && s[i] != '\n' {
				i++
			}
			b.WriteByte(' ')
		case c == '/' && i+2 < len(s) && s[i+1] == '*' && s[i+2] == '!':
			// MySQL's executable comment, /*!50000 DROP */: the server runs
			// what it holds (past an optional version number), so it is SQL,
			// read on by this loop; its closing */ is dropped below.
			i += 2
			for i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
				i++
			}
			executable++
			b.WriteByte(' ')
		case executable > 0 && c == '*' && i+1 < len(s) && s[i+1] == '/':
			executable--
			i++
			b.WriteByte(' ')
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				i = len(s)
			} else {
				i += end + 3
			}
			b.WriteByte(' ')
		case c == '\'' || c == '"' || c == '`':
			// A quoted identifier ("Users", `orders`) keeps its name; a
			// string literal becomes ''.
			j := i + 1
			for j < len(s) {
				if s[j] == c {
					if j+1 < len(s) && s[j+1] == c {
						j += 2
						continue
					}
					break
				}
				if s[j] == '\\' && c == '\'' {
					j++
				}
				j++
			}
			if c == '\'' {
				b.WriteString("''")
			} else {
				b.WriteString(strings.ToLower(s[min(i+1, len(s)):min(j, len(s))]))
			}
			i = j
		case c == '$' && i+1 < len(s) && (s[i+1] == '$' || isIdent(s[i+1])):
			// Postgres dollar quoting: $$…$$ or $tag$…$tag$ (a function body
			// is SQL; keep it, it is analyzed like the rest).
			end := strings.IndexByte(s[i+1:], '$')
			if end < 0 {
				b.WriteByte(c)
				continue
			}
			tag := s[i : i+end+2]
			if strings.Trim(tag[1:len(tag)-1], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != "" {
				b.WriteByte(c)
				continue
			}
			b.WriteByte(' ')
			i += len(tag) - 1
			if close := strings.Index(s[i+1:], tag); close >= 0 {
				body := s[i+1 : i+1+close]
				b.WriteString(" " + body + " ")
				i += close + len(tag)
			}
		case c == ';':
			flush()
		default:
			b.WriteByte(lower(c))
		}
	}
	flush()
	return out
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 32
	}
	return c
}

var (
	compileOnce                                  sync.Once
	reWhere                                      *regexp.Regexp
	reTrivial                                    *regexp.Regexp
	reFunc                                       *regexp.Regexp
	reAlterDrop, rePrivilege, reConcat, reHexLit *regexp.Regexp
	reInto                                       *regexp.Regexp
	reWithWrite                                  *regexp.Regexp
)

func compile() {
	compileOnce.Do(func() {
		reWhere = regexp.MustCompile(`\bwhere\b(.*)`)
		// A WHERE that holds for every row: 1=1, true, 'a'='a', x=x, 1, not false, or …
		reTrivial = regexp.MustCompile(`^\s*\(*\s*(1\s*=\s*1|true|1|not\s+false|''\s*=\s*''|(\w+)\s*=\s*(\w+)|\d+\s*>\s*0|1\s*<>\s*0|\w+\s+is\s+not\s+null|\w+\s+is\s+null\s+or\s+\w+\s+is\s+not\s+null)\s*\)*\s*($|\bor\b|--)`)
		reFunc = regexp.MustCompile(`\b([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)?)\s*\(`)
		reAlterDrop = regexp.MustCompile(`^alter\s+table\b.*\bdrop\b`)
		reConcat = regexp.MustCompile(`'\s*\|\|\s*'`)
		reHexLit = regexp.MustCompile(`(?i)\b0x((?:[0-9a-f]{2}){4,})\b`)
		rePrivilege = regexp.MustCompile(`^(?:alter|create)\s+(?:role|user|group|login)\b.*\b(superuser|createrole|bypassrls|replication|sysadmin|dbo)\b|^alter\s+server\s+role\s+(sysadmin|securityadmin|serveradmin)\b|^alter\s+role\s+(db_owner|db_securityadmin)\s+add\s+member\b`)
		reInto = regexp.MustCompile(`\binto\s+(outfile|dumpfile)\b`)
		reWithWrite = regexp.MustCompile(`\)\s*(insert|update|delete|merge)\b|\bas\s*\(\s*(insert|update|delete)\b`)
	})
}

// Analyze says what the SQL in s would do.
func Analyze(s string) Verdict {
	compile()
	return analyze(s, 0)
}

func analyze(s string, depth int) Verdict {
	var v Verdict
	dynamic := false
	attach := false
	for _, st := range Statements(s) {
		v.Statements++
		analyzeStatement(st, &v)
		verb, _, _ := strings.Cut(st, " ")
		attach = attach || verb == "attach"
		dynamic = dynamic || verb == "exec" || verb == "execute" || verb == "do" || verb == "prepare" ||
			verb == "declare" || strings.Contains(st, " execute ") || strings.Contains(st, "sp_executesql")
	}
	if attach {
		for _, lit := range literals(s) {
			if lit != "" && !strings.ContainsAny(lit, "\n") && (strings.ContainsAny(lit, "/\\") || strings.HasPrefix(lit, "~")) {
				v.Files = append(v.Files, lit)
				if ext := strings.ToLower(lit[strings.LastIndexByte(lit, '.')+1:]); codeFileExt[ext] && strings.Contains(lit, ".") {
					// ATTACH '/var/www/html/x.php' and a table written into
					// it: a file of code made through the database.
					v.Dangers = append(v.Dangers, "ATTACH of a "+ext+" file (writes code through the database: "+lit+")")
				}
			}
		}
	}
	if dynamic && depth < 2 {
		// Dynamic SQL runs its strings: read them as SQL too, with literals
		// joined by || read as one ('DR' || 'OP TABLE x') and hex literals
		// (SET @q = 0x44524f50…; PREPARE s FROM @q) decoded.
		lits := literals(reConcat.ReplaceAllString(s, ""))
		for _, m := range reHexLit.FindAllStringSubmatch(s, 8) {
			if b, err := hex.DecodeString(m[1]); err == nil {
				lits = append(lits, string(b))
			}
		}
		for _, lit := range lits {
			if LooksLikeSQL(lit) || strings.Contains(lit, "%") && LooksLikeSQL(strings.ReplaceAll(lit, "%I", "x")) {
				inner := analyze(strings.ReplaceAll(strings.ReplaceAll(lit, "%I", "x"), "%s", "x"), depth+1)
				v.Dangers = append(v.Dangers, inner.Dangers...)
			}
		}
	}
	return v
}

// codeFileExt are extensions of files that run as code (web pages a server
// executes, scripts): no database is kept in one.
var codeFileExt = map[string]bool{"php": true, "phtml": true, "jsp": true, "jspx": true, "asp": true, "aspx": true,
	"cgi": true, "pl": true, "py": true, "rb": true, "sh": true, "bash": true, "zsh": true, "js": true, "mjs": true,
	"html": true, "htm": true, "shtml": true, "ps1": true, "bat": true, "cmd": true, "service": true, "plist": true,
	"bashrc": true, "zshrc": true, "profile": true}

// literals returns the single-quoted strings of s, unescaped.
func literals(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		if s[i] != '\'' {
			continue
		}
		var b strings.Builder
		j := i + 1
		for ; j < len(s); j++ {
			if s[j] == '\'' {
				if j+1 < len(s) && s[j+1] == '\'' {
					b.WriteByte('\'')
					j++
					continue
				}
				break
			}
			b.WriteByte(s[j])
		}
		out = append(out, b.String())
		i = j
	}
	return out
}

func analyzeStatement(st string, v *Verdict) {
	danger := func(msg string) { v.Dangers = append(v.Dangers, msg) }
	unknown := func(msg string) { v.Unknown = append(v.Unknown, msg) }
	verb, rest, _ := strings.Cut(st, " ")
	if verb == "explain" {
		// EXPLAIN plans the statement; EXPLAIN ANALYZE also runs it. Either
		// way the statement is judged as itself.
		rest = strings.TrimSpace(rest)
		if strings.HasPrefix(rest, "(") {
			if i := strings.IndexByte(rest, ')'); i >= 0 {
				rest = strings.TrimSpace(rest[i+1:])
			}
		}
		for _, opt := range []string{"analyze ", "analyse ", "verbose ", "query plan for ", "format json "} {
			rest = strings.TrimPrefix(rest, opt)
		}
		analyzeStatement(rest, v)
		return
	}
	switch verb {
	case "drop":
		if scratchDrop(rest) {
			// DROP TABLE IF EXISTS tmp_import: a scratch table made for a
			// step of the work; for a person to see, not a clear danger.
			unknown("DROP " + firstWords(rest, 4) + " (a scratch table)")
			break
		}
		danger("DROP " + firstWords(rest, 2))
	case "truncate":
		danger("TRUNCATE " + firstWords(rest, 2))
	case "delete", "update":
		if where := reWhere.FindStringSubmatch(st); where == nil {
			danger(strings.ToUpper(verb) + " without WHERE (every row)")
		} else if m := reTrivial.FindStringSubmatch(where[1]); m != nil && (m[2] == "" || m[2] == m[3]) {
			danger(strings.ToUpper(verb) + " with a WHERE that holds for every row (" + strings.TrimSpace(firstWords(where[1], 3)) + ")")
		} else {
			unknown(strings.ToUpper(verb) + " of some rows")
		}
	case "alter", "create":
		if m := rePrivilege.FindStringSubmatch(st); m != nil {
			// ALTER ROLE app WITH SUPERUSER, CREATE USER x … SUPERUSER,
			// ALTER SERVER ROLE sysadmin ADD MEMBER: a grant by another name.
			danger(strings.ToUpper(verb) + " " + firstWords(rest, 2) + " grants " + strings.ToUpper(m[1]))
		} else if verb == "create" {
			unknown("CREATE statement")
		} else if reAlterDrop.MatchString(st) {
			danger("ALTER TABLE … DROP")
		} else {
			unknown("ALTER " + firstWords(rest, 2))
		}
	case "grant", "revoke":
		danger(strings.ToUpper(verb) + " " + firstWords(rest, 3))
	case "copy":
		if strings.Contains(st, " program ") {
			danger("COPY … PROGRAM (runs a program on the database server)")
		} else {
			unknown("COPY")
		}
	case "exec", "execute", "call", "do", "prepare", "declare":
		if strings.Contains(st, "xp_cmdshell") {
			danger("xp_cmdshell (runs a program on the database server)")
		} else {
			unknown("dynamic SQL or a procedure (" + strings.ToUpper(verb) + ")")
		}
	case "shutdown", "kill":
		danger(strings.ToUpper(verb))
	case "select", "with", "show", "describe", "desc", "values", "table", "pragma":
		if verb == "with" && reWithWrite.MatchString(st) {
			unknown("a WITH that writes")
		}
		if verb == "pragma" && strings.Contains(st, "=") {
			unknown("PRAGMA that sets a value")
		}
		if reInto.MatchString(st) {
			danger("SELECT … INTO OUTFILE (writes a file on the database server)")
		}
		if strings.Contains(st, " into ") && verb == "select" && !reInto.MatchString(st) {
			unknown("SELECT INTO (creates a table)")
		}
		checkFunctions(st, danger, unknown)
	case "set", "use", "begin", "commit", "rollback", "start":
		// Session statements: harmless by themselves.
	default:
		unknown(strings.ToUpper(verb) + " statement")
	}
	if verb != "select" && verb != "with" {
		checkFunctions(st, danger, func(string) {})
	}
}

// checkFunctions sorts the functions a statement calls.
func checkFunctions(st string, danger, unknown func(string)) {
	for _, m := range reFunc.FindAllStringSubmatch(st, -1) {
		name := m[1]
		base := name[strings.LastIndexByte(name, '.')+1:]
		switch {
		case sqlWords()[base]:
		case dangerousFunctions[base] != "":
			danger(base + "() " + dangerousFunctions[base])
		case strings.HasPrefix(base, "dblink"), strings.HasPrefix(base, "dbms_"), strings.HasPrefix(base, "utl_"), strings.HasPrefix(base, "xp_"), strings.HasPrefix(base, "sp_"):
			danger(base + "() reaches outside the query (remote links, files, programs)")
		case safeFunctions()[base]:
		default:
			unknown(base + "() is not known to be free of side effects")
		}
	}
}

// scratchDrop reports DROP [TEMPORARY] TABLE [IF EXISTS] of one table whose
// name says it is scratch (tmp_…, temp_…, scratch_…, …_tmp), or any DROP
// TEMPORARY TABLE: the rest of a DROP statement as it follows the verb.
func scratchDrop(rest string) bool {
	f := strings.Fields(strings.TrimRight(rest, "; "))
	temporary := false
	if len(f) > 0 && (f[0] == "temporary" || f[0] == "temp") {
		temporary, f = true, f[1:]
	}
	if len(f) < 2 || f[0] != "table" {
		return false
	}
	f = f[1:]
	if len(f) > 2 && f[0] == "if" && f[1] == "exists" {
		f = f[2:]
	}
	if len(f) != 1 || strings.Contains(f[0], ",") {
		return false // several tables, or CASCADE
	}
	name := strings.Trim(f[0], "\"`[]")
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = strings.Trim(name[i+1:], "\"`[]")
	}
	if temporary {
		return true
	}
	for _, p := range []string{"tmp_", "temp_", "scratch_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return strings.HasSuffix(name, "_tmp") || strings.HasSuffix(name, "_temp") || strings.HasSuffix(name, "_scratch")
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	return strings.ToUpper(strings.Join(f, " "))
}
