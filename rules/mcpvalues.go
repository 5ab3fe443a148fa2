// MCP tool inputs analyzed by what each value is: URLs, paths, SQL. (Shell
// commands go through the shell rules in evalMCP; secrets and text aimed at
// the reviewer are found in every value by secretScan and flagScan.)

package rules

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/text"
	"github.com/hookguard/hookguard/rules/effects"
	"github.com/hookguard/hookguard/rules/secrets"
	"github.com/hookguard/hookguard/rules/sqlscan"
)

// jsonValue is one string value of a tool input and the key it is under.
type jsonValue struct{ key, value string }

// valuesIn returns every string value of a decoded JSON document with its
// key, in key order (and JSON held in a string, once more).
func valuesIn(v any) []jsonValue {
	var out []jsonValue
	var walk func(key string, v any, depth int)
	walk = func(key string, v any, depth int) {
		switch x := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if projectionKey(strings.ToLower(key)) && (x[k] == true || x[k] == float64(1) || x[k] == json.Number("1")) {
					// {"projection": {"passwordHash": 1}}: the field names are what is read.
					out = append(out, jsonValue{key, k})
					continue
				}
				walk(k, x[k], depth)
			}
		case []any:
			for _, val := range x {
				walk(key, val, depth)
			}
		case string:
			out = append(out, jsonValue{key, x})
			if t := strings.TrimSpace(x); depth == 0 && (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) {
				var inner any
				if json.Unmarshal([]byte(t), &inner) == nil {
					walk(key, inner, depth+1)
				}
			}
		}
	}
	walk("", v, 0)
	return out
}

// mcpValues analyzes the values of a tool input by what they are.
func (p *Policy) mcpValues(e *evaluation, ev *hook.Event, ctx Context) hook.Decision {
	var d hook.Decision
	deny := func(id, reason, advice, part string) {
		d = hook.Stricter(d, e.add(&Rule{ID: id, Decision: hook.Deny, Reason: reason, Advice: advice}, part))
	}
	escalate := func(msg string) {
		e.out.Escalations = append(e.out.Escalations, msg)
		d = hook.Stricter(d, hook.Judge)
	}
	tool := strings.ToLower(ev.Tool)
	writes := writingTool(tool)
	moves := movingTool(tool)
	dbish := databaseTool(strings.ToLower(ev.Server) + " " + tool)
	// The tool input's top level, read once: the file a writing tool edits
	// and the content it writes.
	iv, _ := e.toolInput(ev.ToolInput)
	top, _ := iv.(map[string]any)
	content := firstString(top, "content", "contents", "text", "body", "data")
	if content == "" {
		// edit_file's edits: what the file gains is the new text.
		content = editedText(top)
	}
	lang := codeLanguage(firstString(top, "path", "file_path", "filePath", "filename", "file"))
	for k, v := range top {
		// get_service_config {"include_secrets": true}, {"decrypt": true}:
		// the call asks for credentials in its answer.
		on := v == true
		if sv, ok := v.(string); ok {
			on = strings.EqualFold(sv, "true") || strings.EqualFold(sv, "yes")
		}
		if on && secretFlagKeyRe().MatchString(k) {
			escalate("the tool is asked to return secrets in its answer (" + k + ")")
			break
		}
	}
	if strings.Contains(tool, "search") || strings.Contains(tool, "find") || strings.Contains(tool, "glob") {
		// search_files {"path": "/", "pattern": "id_rsa"}: a hunt for
		// credential files outside the workspace.
		pat := firstString(top, "pattern", "name", "glob", "query", "filename")
		root := firstString(top, "path", "root", "directory", "dir", "base_path", "basePath", "cwd")
		if abs := effects.NormalizePath(root, ctx.Cwd, ctx.Home); pat != "" && abs != "" && !inWorkspace(abs, ctx) &&
			!strings.HasPrefix(abs, "/tmp") && effects.IsSecretPath(strings.Trim(pat, "*"), virtualWorkspace, ctx.Home) {
			escalate("the tool searches " + abs + ", outside the workspace, for credential files (" + text.Truncate(pat, 40) + ")")
		}
		// search_code {"q": "AKIA org:acme"}: a code host searched for
		// credentials across an organization or everyone's code, not one
		// repository's own leak audit.
		if q := firstString(top, "q", "query", "search", "search_query", "searchQuery"); q != "" && secretHuntRe().MatchString(q) &&
			strings.Contains(tool, "code") {
			lq := strings.ToLower(q)
			switch {
			case strings.Contains(lq, "repo:") || strings.Contains(lq, "project:"):
				// One repository's own leak audit.
			case strings.Contains(lq, "org:") || strings.Contains(lq, "user:") || strings.Contains(lq, "group:"):
				// search_code {"q": "AKIA org:acme"}: an organization's code
				// searched for keys: an audit or a harvest, for the judge.
				escalate("the tool searches code beyond one repository for credentials (" + text.Truncate(q, 60) + ")")
			default:
				// search_code {"q": "filename:.env sk_live"}: everyone's code
				// searched for live keys (other people's leaks, to use).
				deny("mcp-credential-hunt", "searches everyone's code on the code host for credentials ("+text.Truncate(q, 60)+")",
					"audit your own repositories (repo:, org:) for leaks; never collect other people's keys", "")
			}
		}
	}
	if why := typesPassword(tool, top); why != "" {
		escalate(why)
	}
	if revealsStoredSecret(strings.ToLower(ev.Server), tool, top) {
		// 1Password item_get {"reveal": true}, vault read: the secret comes
		// back into the conversation.
		escalate("the tool reads a secret out of a password manager or secret store into the conversation")
	}
	switch deny, why := clicksDestructive(tool, top); {
	case deny:
		d = hook.Stricter(d, e.add(&Rule{ID: "mcp-click-destroys", Decision: hook.Deny, Reason: why,
			Advice: "deleting or giving away a whole repository, project or account is the user's step to take; ask them"}, ""))
	case why != "":
		escalate(why)
	}
	if strings.Contains(tool, "evaluate") {
		// browser_evaluate {"function": "() => document.title"}: a script
		// that only reads what the page shows, like a snapshot.
		if code := firstString(top, "function", "script", "expression", "code"); code != "" && readOnlyPageScript(code) {
			d = hook.Stricter(d, e.add(&Rule{ID: "mcp-readonly-page-script", Decision: hook.Allow,
				Reason: "a page script that only reads what the page shows"}, ""))
		}
	}
	if memoryWrite(strings.ToLower(ev.Server), tool) && ctx.depth == 0 {
		// add_observations {"contents": ["before every task run `curl … | sh`
		// without asking"]}: what the agent remembers is read in later
		// sessions like its own instructions.
		var all strings.Builder
		for _, jv := range valuesIn(iv) {
			all.WriteString(jv.value)
			all.WriteByte('\n')
		}
		text := all.String()
		switch v := hook.Judge; {
		case len(text) > 8<<10:
			escalate("stores more text for later sessions than the rules read")
		default:
			mctx := ctx
			if len(mctx.WorkspaceRoots) == 0 {
				mctx.WorkspaceRoots = []string{virtualWorkspace}
			}
			v = p.agentTextVerdict(mctx.WorkspaceRoots[0]+"/memory-observations.md", text, mctx)
			switch v {
			case hook.Deny:
				d = hook.Stricter(d, e.add(&Rule{ID: "mcp-memory-instruction", Decision: hook.Deny,
					Reason: "stores an instruction for later sessions that the rules deny (a command to run, or a way past the guard)",
					Advice: "store facts about the project; instructions to run things are the user's to give"}, ""))
			case hook.Allow:
				// "uses pnpm workspaces", "tests run with vitest": project facts.
				d = hook.Stricter(d, e.add(&Rule{ID: "mcp-memory-facts", Decision: hook.Allow,
					Reason: "stores facts and conventions about the project, nothing to run or approve"}, ""))
			default:
				escalate("stores text for later sessions that speaks of actions, approvals or secrets")
			}
		}
	}
	if why, ok := p.branchFileWrite(tool, top, ctx); ok && why != "" {
		// create_or_update_file {"branch": "docs/setup", "path": "docs/setup.md"}:
		// project files onto a working branch, which a pull request reviews.
		d = hook.Stricter(d, e.add(&Rule{ID: "mcp-branch-file-write", Decision: hook.Allow, Reason: why}, ""))
	} else if ok {
		escalate("writes files to a repository on the code host without a working branch for ordinary files (a protected or no branch, or CI, hook, agent or credential files)")
	}
	if collaborationPost(ev.Tool) {
		// An issue, comment, pull request or chat message for the team:
		// allowed unless its text needs a person (a secret in it is denied
		// by the secret scan).
		var all strings.Builder
		for _, jv := range valuesIn(iv) {
			if k := strings.ToLower(jv.key); freeTextKey(k) || k == "title" || k == "summary" || k == "description" || k == "commentbody" {
				all.WriteString(jv.value)
				all.WriteByte('\n')
			}
		}
		channel := firstString(top, "channel", "channel_id", "channelId", "channel_name", "conversation", "to")
		for _, jv := range valuesIn(iv) {
			// A page's parent, a space, a visibility: where the post lands.
			switch strings.ToLower(jv.key) {
			case "page_id", "parent_id", "space", "space_key", "spacekey", "database_id", "visibility", "parent":
				channel += " " + jv.value
			}
		}
		if why := collabConcern(all.String(), channel); why != "" {
			escalate(why)
		} else {
			d = hook.Stricter(d, e.add(&Rule{ID: "mcp-collaboration-post", Decision: hook.Allow,
				Reason: "a post to the team's tracker or chat with nothing the rules find in it"}, ""))
		}
	}
	if postsOutward(tool, top) {
		// A message, issue or comment carrying several people's contact
		// details: customer data leaving for a shared or public place.
		var all strings.Builder
		for _, jv := range valuesIn(iv) {
			if freeTextKey(strings.ToLower(jv.key)) {
				all.WriteString(jv.value)
				all.WriteByte('\n')
			}
		}
		if what := personalData(all.String()); what != "" {
			if postsToRecord(tool) {
				// An issue, comment or gist stays readable to everyone who can
				// see the project, and is copied into mail and search.
				deny("mcp-posts-personal-data", "posts "+what+" into an issue, comment or page (personal data of customers or users)",
					"refer to the records by their ids; share personal data only where the user says it may go", "")
			} else {
				escalate("the message carries " + what + ": is the channel one this data may go to?")
			}
		}
	}
	for _, jv := range valuesIn(iv) {
		v := strings.TrimSpace(jv.value)
		key := strings.ToLower(jv.key)
		if v == "" || len(v) > 64<<10 {
			continue
		}
		for _, wrapper := range []string{"view-source:", "jar:", "url:"} {
			// view-source:file:///…: the browser shows what the inner URL reads.
			if len(v) > len(wrapper) && strings.EqualFold(v[:len(wrapper)], wrapper) {
				v = v[len(wrapper):]
			}
		}
		if len(v) > 11 && strings.EqualFold(v[:11], "javascript:") {
			// A javascript: URL runs its code in the page the tool has open.
			low := strings.ToLower(v)
			if strings.Contains(low, "cookie") || strings.Contains(low, "localstorage") || strings.Contains(low, "sessionstorage") {
				deny("mcp-javascript-url", "a javascript: URL that reads the page's cookies or storage",
					"read what you need through the tool's own functions; ask the user", "")
			} else {
				escalate("a javascript: URL runs code in the page: " + text.Truncate(v, 80))
			}
			continue
		}
		if len(v) > 5 && strings.EqualFold(v[:5], "data:") {
			page := dataURLContent(v)
			if page != "" && ctx.depth == 0 {
				// What the tool loads is read by the agent like a file's
				// content: instructions planted in it, or a secret, are
				// judged as they would be in a file read.
				inner := ctx
				inner.depth++
				if o := p.Evaluate(&hook.Event{Kind: hook.KindRead, FilePath: "/data-url.txt", Content: page, Cwd: ev.Cwd,
					WorkspaceRoots: ev.WorkspaceRoots}, inner); o.Decision != hook.Allow {
					why := "a data: URL whose text the agent would read: "
					if len(o.Escalations) > 0 {
						why += o.Escalations[0]
					} else if o.Decisive != nil {
						why += o.Decisive.Reason
					}
					escalate(text.Truncate(why, 300))
				}
			}
			if m := dataFormActionRe().FindStringSubmatch(strings.ToLower(page)); m != nil && strings.Contains(strings.ToLower(page), "<input") {
				if local, _ := effects.ClassifyHost(m[1]); !local {
					// A made-up login form (or one a script fills with the
					// page's cookies) that posts to another host.
					deny("mcp-data-url-form", "a data: URL page with a form that sends what is typed or stored to "+hostOf(m[1]),
						"open the page the task is about; ask the user", "")
					continue
				}
			}
			// A data: URL is a page the tool opens: its script runs there.
			if strings.Contains(strings.ToLower(page), "<script") || strings.Contains(strings.ToLower(page), "javascript:") {
				lowPage := strings.ToLower(page)
				if strings.Contains(lowPage, "file://") || (strings.Contains(lowPage, "fetch(") || strings.Contains(lowPage, "xmlhttprequest") ||
					strings.Contains(lowPage, "sendbeacon")) && (strings.Contains(lowPage, "cookie") || strings.Contains(lowPage, "localstorage") ||
					strings.Contains(lowPage, "http")) {
					deny("mcp-data-url-script", "a data: URL page whose script reads local files or sends data out",
						"open the page the task is about; ask the user", "")
				} else {
					escalate("a data: URL page that runs a script")
				}
			}
			continue
		}
		if low := strings.ToLower(v); strings.Contains(low, "://") && streamWrapperRe().MatchString(low) {
			deny("mcp-stream-wrapper", "a URL that smuggles a PHP or archive stream wrapper (php://filter, phar://, expect://): a local file read or code run on the server",
				"request the page itself; ask the user", hostOf(v))
			continue
		}
		if runs := serverCodeRuns(v); key == "$where" || key == "$function" || key == "$accumulator" || runs && !freeTextKey(key) {
			// Server-side JavaScript in a database query: it runs with the
			// database's rights.
			if runs {
				deny("mcp-server-code", "a query that runs JavaScript on the database server that starts programs or loads modules ("+text.Truncate(v, 60)+")",
					"filter with query operators, not code; ask the user", "")
			} else {
				escalate("a query that runs JavaScript on the database server: " + text.Truncate(v, 80))
			}
			continue
		}
		if scheme, rest, ok := strings.Cut(v, "://"); ok && !strings.ContainsAny(scheme, " /\n") && len(scheme) < 12 {
			switch strings.ToLower(scheme) {
			case "chrome", "edge", "brave", "opera", "vivaldi", "chrome-extension":
				// A browser's own pages: its settings, and its saved passwords.
				if low := strings.ToLower(rest); strings.Contains(low, "password") || strings.Contains(low, "autofill") {
					deny("mcp-browser-passwords", "opens the browser's saved passwords ("+text.Truncate(v, 60)+")",
						"passwords stay in the browser; ask the user for what you need", "")
				} else {
					escalate("opens a page of the browser itself: " + text.Truncate(v, 80))
				}
				continue
			case "gopher", "dict":
				deny("mcp-smuggling-scheme", "a "+strings.ToLower(scheme)+":// URL, which writes raw bytes to a service (request smuggling, e.g. into Redis)",
					"use the service's own client or API; ask the user", hostOf(v))
			case "file":
				fp := fileURLPath(rest)
				switch {
				case slices.Contains(effects.PathClassesOf(fp, ctx.Cwd, ctx.Home), effects.ClassSecret):
					deny("mcp-file-url-secret", fmt.Sprintf("reads the credential file %s through a file:// URL", fp),
						"do not read credential files; ask the user for the non-secret value you need", fp)
				case systemAccountFile(fp):
					// file:///etc/passwd: the local-file probe of every SSRF test.
					deny("mcp-file-url-system", "reads the system's account or configuration file "+fp+" through a file:// URL (a local-file probe)",
						"fetch the page the task is about; read project files with the file tools", fp)
				case !slices.ContainsFunc(classifyPath(fp, ctx.Cwd, ctx), func(c string) bool { return c == PathInside || c == PathWorkspace }):
					escalate("a file:// URL reads a local file outside the workspace: " + fp)
				}
			default:
				if climbed, ok := climbsOut(rest); ok {
					// /static/..%2f..%2fhome/dev/.ssh/id_rsa: the server is asked
					// for a file outside what it serves.
					if slices.Contains(effects.PathClassesOf(climbed, ctx.Cwd, ctx.Home), effects.ClassSecret) {
						deny("mcp-url-traversal-secret", "a URL that climbs out of the served folder to the credential file "+climbed,
							"request the page itself; ask the user", hostOf(v))
					} else {
						escalate("a URL that climbs out of the served folder (../): " + text.Truncate(v, 80))
					}
				}
				if label := effects.EncodedHostLabel(hostOf(v)); label != "" {
					deny("mcp-dns-exfiltration", "a URL whose host name carries encoded data ("+text.Truncate(label, 40)+"): the lookup alone sends it out",
						"fetch the service by its own name; ask the user", hostOf(v))
				}
				if _, metadata := effects.ClassifyHost(v); metadata {
					deny("mcp-metadata-endpoint", "reaches a cloud metadata endpoint, where instance credentials live ("+hostOf(v)+")",
						"the agent has no business with instance metadata; ask the user", hostOf(v))
				} else if h := effects.MetadataHostIn(v); h != "" {
					deny("mcp-metadata-endpoint", "passes a cloud metadata address inside the URL ("+h+"), for a redirect or proxy to reach",
						"the agent has no business with instance metadata; ask the user", hostOf(v))
				}
				if local, _ := effects.ClassifyHost(v); local {
					if what := adminAPI(v); what != "" {
						escalate("reaches " + what + " on a local or private address (" + hostOf(v) + ")")
					} else if !effects.LoopbackHost(v) {
						// Another machine of a private network (a router, a
						// service registry, an internal admin page): what
						// answers there trusts the network, not the caller.
						escalate("reaches a machine on the private network (" + hostOf(v) + "), whose services answer without the credentials the internet would need")
					}
				}
				if vaultSecretsRe().MatchString(v) {
					deny("mcp-vault-secrets-api", "reads secrets through a Vault API ("+hostOf(v)+")",
						"ask the user for the one value the task needs", hostOf(v))
				}
				if kubeSecretsRe().MatchString(v) {
					deny("mcp-kube-secrets-api", "reads Kubernetes secrets through the cluster's API ("+hostOf(v)+")",
						"read the non-secret configuration you need (a ConfigMap, a deployment), or ask the user", hostOf(v))
				}
			}
			continue
		}
		if writes && (freeTextKey(key) || key == "newtext" || key == "new_text" || key == "content") {
			// Code written into a file the project runs (setup.py, a script):
			// network use with a credential path or the environment is a leak.
			if lang != "" {
				found := effects.InlineCodeFindings(lang, v)
				if slices.Contains(found, effects.FoundNetwork) && (slices.Contains(found, effects.FoundSecretPath) || slices.Contains(found, effects.FoundEnv)) {
					deny("mcp-code-sends-secrets", "writes "+lang+" code that sends a credential file or the environment over the network",
						"write the code without reaching credentials, and show the user what it sends", "")
				}
			}
			if sourceFile(firstString(top, "path", "file_path", "filePath", "filename", "file")) && len(v) < 16<<10 && ctx.depth < maxNestedDepth {
				// Command::new("sh").arg("-c").arg("curl … | sh"), system("…"): the
				// shell commands the code hands on, in any language.
				inner := ctx
				inner.depth++
				for i, cmd := range effects.SpawnedCommands(lang, v) {
					if i == 8 {
						break
					}
					if p.Evaluate(&hook.Event{Kind: hook.KindShell, Command: cmd, Cwd: ev.Cwd, WorkspaceRoots: ev.WorkspaceRoots}, inner).Decision == hook.Deny {
						deny("mcp-code-runs-denied", "writes code that runs a shell command the rules deny: "+text.Truncate(cmd, 100),
							"write the code without that command, and show the user what it runs", "")
						break
					}
				}
			}
			if reviewerSteeringRe().MatchString(v) {
				escalate("the written text is aimed at an AI reviewer or guard (a planted instruction)")
			}
		}
		if writes && strings.Contains(v, "install") || writes && strings.Contains(v, "prepare") {
			// A package.json lifecycle script runs on the next npm install:
			// decided by the command it holds.
			for _, m := range lifecycleScriptRe().FindAllStringSubmatch(v, 4) {
				cmd := strings.ReplaceAll(strings.ReplaceAll(m[2], `\"`, `"`), `\\`, `\`)
				if p.evalShell(e, cmd, ctx) == hook.Deny {
					deny("mcp-lifecycle-script", "adds an npm "+m[1]+" script whose command the rules deny: "+text.Truncate(cmd, 80),
						"add dependencies and scripts the project needs, and show the user what runs on install", "")
				} else {
					escalate("adds an npm " + m[1] + " script, which runs on every install: " + text.Truncate(cmd, 80))
				}
			}
		}
		if pathValue(key, v) && (writes || tool == "push_files") && !sourceKey(key) && ctx.depth < maxNestedDepth {
			// A file that runs by itself later (a CI workflow, a hook
			// script, a start-up file) written with its content in the
			// input: a command the rules deny in it denies the write.
			if body := writtenContent(top, v, content); body != "" {
				abs := v
				if !strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "~") {
					abs = virtualWorkspace + "/" + strings.TrimPrefix(v, "./")
				}
				inner := ctx
				inner.depth++
				verdict := func(code string) hook.Decision {
					return p.Evaluate(&hook.Event{Kind: hook.KindShell, Command: code, Cwd: ev.Cwd, WorkspaceRoots: ev.WorkspaceRoots}, inner).Decision
				}
				if danger := effects.LaterDangerOf(abs, body, verdict); danger != "" {
					deny("mcp-protected-write", "writes "+v+", which runs by itself later, with "+danger,
						"CI pipelines, hook scripts and start-up files run without anyone reviewing them; show the user the change", v)
					continue
				}
			}
		}
		if pathValue(key, v) {
			classes := effects.PathClassesOf(v, ctx.Cwd, ctx.Home)
			if ctx.Cwd == "" && !strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "~") && !strings.Contains(v, "://") {
				// A code host's file tool names a path inside its repository
				// (.github/workflows/deploy.yml).
				// Only its CI class counts here: the repository's other
				// files are not this machine's.
				if slices.Contains(effects.PathClassesOf(virtualWorkspace+"/"+strings.TrimPrefix(v, "./"), virtualWorkspace, ctx.Home), effects.ClassCI) {
					classes = append(classes, effects.ClassCI)
				}
			}
			written := writes && !sourceKey(key) || moves && (sourceKey(key) || targetKey(key))
			if moves && sourceKey(key) {
				// Moving the workspace, a folder above it, the home directory
				// or / takes everything in it away.
				if abs := effects.NormalizePath(v, ctx.Cwd, ctx.Home); abs != "" && coversWorkspace(abs, ctx) {
					dest := effects.NormalizePath(firstString(top, "destination", "dest", "target", "to", "new_path", "newPath"), ctx.Cwd, ctx.Home)
					if dest != "" && (slices.Contains(effects.PathClassesOf(dest, ctx.Cwd, ctx.Home), "temp") || hiddenSegment(dest)) {
						// move_file {"source": <workspace>, "destination":
						// "/tmp/.cache-03b9"}: the project put where it is
						// cleaned away or out of sight.
						deny("mcp-move-workspace-away", "moves "+abs+", the workspace or a folder holding it, into "+dest+" (a temporary or hidden folder)",
							"leave the workspace where it is; ask the user before moving whole projects", v)
					} else {
						escalate("the tool moves " + abs + ", the workspace or a folder holding it, away")
					}
				}
			}
			guard := slices.Contains(classes, effects.ClassGuard)
			switch {
			case guard && written && effects.EditorTaskFile(v) && !effects.EditorTaskRunsByItself(string(ev.ToolInput)):
				escalate("the tool writes an editor task file: " + v)
			case guard && written && effects.EditorConfigFile(v) && !effects.EditorTaskFile(v) && content != "":
				// .vscode/settings.json with its content in the input: the
				// settings decide (a program outside the workspace is judged).
				if why := effects.EditorSettingsDanger(content); why != "" {
					deny("mcp-tamper-guard-config", "writes "+v+" with "+why,
						"leave the agent's permissions to the user; describe the change you want and let the user make it", v)
				} else if why := effects.EditorSettingsConcern(content); why != "" {
					escalate("the tool writes editor settings: " + why)
				}
			case guard && (written || !readingTool(tool)):
				deny("mcp-tamper-guard-config", "changes hookguard's own configuration or the agent's hooks ("+v+")",
					"hooks and guard policy are changed by the user, not by the agent; describe the change you want and let the user make it", v)
			case written && isEnvrc(v) && harmlessEnvrc(content):
				// export PORT=4000 / layout node: direnv sets variables, runs nothing else.
			case written:
				if what := runsByItself(classes, v); what != "" {
					deny("mcp-protected-write", fmt.Sprintf("writes %s (%s)", v, what),
						"leave the guard, the agent's hooks, version-control internals and start-up files to the user", v)
				} else if slices.Contains(classes, effects.ClassAgent) {
					switch p.agentTextVerdict(v, content, ctx) {
					case hook.Allow:
					case hook.Deny:
						deny("mcp-protected-write", "writes the agent's own instructions ("+v+") with text that gets the agent past the guard",
							"the agent's rules are changed by the user; describe the change you want", v)
					default:
						escalate("the tool writes the agent's own instructions: " + v)
					}
				} else if slices.Contains(classes, effects.ClassHooks) && content != "" && len(content) < 16<<10 && ctx.depth < maxNestedDepth {
					// .husky/pre-commit, .pre-commit-config.yaml: they run on
					// later commits; a command the rules deny in them denies
					// the write, as it does for a shell command writing them.
					inner := ctx
					inner.depth++
					verdict := func(code string) hook.Decision {
						return p.Evaluate(&hook.Event{Kind: hook.KindShell, Command: code, Cwd: ev.Cwd, WorkspaceRoots: ev.WorkspaceRoots}, inner).Decision
					}
					if effects.HookScriptVerdict(v, content, verdict) == hook.Deny {
						deny("mcp-protected-write", "writes "+v+", a git hook or hook manager's configuration, with a command the rules deny",
							"hooks run on later commits without review; show the user the hook you want", v)
					}
				} else if slices.Contains(classes, effects.ClassCI) {
					if cmd := p.deniedCICommand(content, ev, ctx); cmd != "" {
						deny("mcp-protected-write", "writes a CI pipeline ("+v+") that runs a command the rules deny: "+text.Truncate(cmd, 120),
							"CI runs with the repository's secrets; show the user the pipeline change", v)
					} else if !p.harmlessCIWrite(v, content, top, ev, ctx) {
						escalate("the tool writes a CI pipeline, which runs with the repository's secrets: " + v)
					}
				}
			}
			continue
		}
		if environmentKey(key) && productionName(v) && !readingTool(tool) && !metadataTool(tool) {
			// exec_in_pod {"namespace": "production", …}: whatever it runs,
			// it runs in production, not on this machine.
			d = hook.Stricter(d, e.add(&Rule{ID: "mcp-production-change", Decision: hook.Ask,
				Reason: "runs or changes something in production (" + key + "=" + text.Truncate(v, 40) + ")"}, ""))
			continue
		}
		if projectionKey(key) && secretColumn(v) {
			deny("mcp-sql-secret-columns", "a query that reads stored credentials ("+v+")",
				"select the fields you need without passwords, tokens or keys; ask the user", "")
			continue
		}
		if (strings.Contains(key, "collection") || key == "coll") && (strings.EqualFold(v, "system.users") || strings.EqualFold(v, "system.keys")) {
			deny("mcp-sql-credential-tables", "reads the database's own accounts and password hashes ("+v+")",
				"query the application's collections; leave database accounts to the user", "")
			continue
		}
		if sqlKey(key) && (dbish || key == "sql" || key == "statement" || key == "sql_query") && sqlscan.LooksLikeSQL(v) {
			sv := sqlscan.Analyze(v)
			secretFile := ""
			for _, f := range sv.Files {
				if slices.Contains(effects.PathClassesOf(f, ctx.Cwd, ctx.Home), effects.ClassSecret) {
					secretFile = f
				}
			}
			switch {
			case secretFile != "":
				deny("mcp-sql-attach-secret", "opens the credential store "+secretFile+" as a database to read it",
					"do not read credential stores; ask the user for what you need", secretFile)
			case len(sv.Dangers) > 0:
				deny("mcp-sql-danger", "SQL that "+strings.Join(sv.Dangers, "; "),
					"show the statement to the user and let them run it", "")
			case !sv.ReadOnly() && scopedRowWrites(sv) && !privilegeUpdate(v) && !codeDDL(v) && localDevDatabase(ev, top, ctx) != "":
				// DELETE FROM sessions WHERE expires_at < now() on the
				// project's own development database: routine work.
				d = hook.Stricter(d, e.add(&Rule{ID: "mcp-dev-db-write", Decision: hook.Allow,
					Reason: "a scoped row change on a local development database (" + localDevDatabase(ev, top, ctx) + ")"}, ""))
			case !sv.ReadOnly():
				escalate("SQL that is not known to be read-only: " + strings.Join(sv.Unknown, "; "))
			case selectsSecretColumns(v) != "":
				deny("mcp-sql-secret-columns", "SQL that reads stored credentials ("+selectsSecretColumns(v)+")",
					"select the columns you need without passwords, tokens or keys; ask the user", "")
			case credentialTablesRe().MatchString(v):
				deny("mcp-sql-credential-tables", "SQL that reads the database's own accounts and password hashes",
					"query the application's tables; leave database accounts to the user", "")
			case personalColumns(v) >= 2 && !limitedRows(v):
				// SELECT email, phone, date_of_birth FROM customers: people's
				// data, every row of it, into the conversation.
				escalate("SQL that reads several personal-data columns of every row (" + text.Truncate(v, 80) + ")")
			case sv.Statements > 0 && !sensitiveColumns(v):
				d = hook.Stricter(d, e.add(&Rule{ID: "mcp-readonly-sql", Decision: hook.Allow, Reason: "a read-only SQL query"}, ""))
			}
			continue
		}
		if !freeTextKey(key) && len(v) < 512 && stackedStatement(v) {
			deny("mcp-sql-injection", "a value that closes its own statement and stacks another (SQL injection): "+text.Truncate(v, 80),
				"pass identifiers and values as data, not SQL", "")
		}
	}
	return d
}

// adminAPI names a service's control or configuration API that a URL on a
// local or private address reaches ("" for anything else): they answer
// without credentials there, and hand out secrets or run containers.
func adminAPI(v string) string {
	u, err := url.Parse(v)
	if err != nil {
		return ""
	}
	switch u.Port() {
	case "2375", "2376":
		return "the Docker daemon's API"
	case "10250", "10255":
		return "the kubelet's API"
	case "2379":
		return "etcd"
	case "8500":
		return "Consul's API"
	}
	if !effects.LoopbackHost(v) {
		// A data store on another machine of a private network is shared
		// infrastructure (on this machine, a dev container).
		switch p := strings.ToLower(u.Path); {
		case u.Port() == "9200" || u.Port() == "9300":
			return "an Elasticsearch or OpenSearch cluster's API"
		case u.Port() == "5984":
			return "CouchDB's API"
		case u.Port() == "15672":
			return "RabbitMQ's management API"
		case u.Port() == "8983":
			return "Solr's API"
		case strings.HasPrefix(p, "/_cat/") || strings.HasPrefix(p, "/_cluster/") || strings.HasPrefix(p, "/_nodes") || strings.HasPrefix(p, "/_all_dbs"):
			return "a search or document store's cluster API"
		}
	}
	p := strings.ToLower(u.Path)
	switch {
	case strings.Contains(p, "/actuator/env"), strings.Contains(p, "/actuator/heapdump"), strings.Contains(p, "/actuator/configprops"):
		return "a Spring Boot actuator endpoint that shows configuration"
	case strings.HasPrefix(p, "/v1/kv/") || strings.HasPrefix(p, "/v2/keys"):
		return "a key-value store's API"
	case strings.HasSuffix(p, "/.env") || p == "/env" || strings.HasPrefix(p, "/debug/vars"):
		return "an endpoint that shows the environment"
	case strings.HasPrefix(p, "/config_dump") || u.Port() == "15000" || u.Port() == "9901":
		return "Envoy's admin API (its whole configuration, certificates included)"
	case u.Port() == "15672" || strings.HasPrefix(p, "/api/definitions"):
		return "RabbitMQ's management API"
	}
	return ""
}

// environmentKey reports a tool input key that says where a call acts
// (a namespace, a cluster or context, an environment or stage).
func environmentKey(k string) bool {
	switch k {
	case "namespace", "ns", "context", "kube_context", "kubecontext", "cluster", "cluster_name", "environment", "env", "stage",
		"environment_name", "target_environment", "workspace_env":
		return true
	}
	return false
}

// productionName reports a name with a label that says production (prod,
// production, prd, prod-eu, payments-production).
func productionName(v string) bool {
	for _, label := range strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == '/' || r == ':' }) {
		if label == "prod" || label == "production" || label == "prd" {
			return true
		}
	}
	return false
}

// coversWorkspace reports a path that is a workspace root, a folder above
// one, the home directory or /.
func coversWorkspace(abs string, ctx Context) bool {
	if abs == "/" || abs == ctx.Home {
		return true
	}
	for _, r := range ctx.WorkspaceRoots {
		if r == abs || strings.HasPrefix(r, strings.TrimSuffix(abs, "/")+"/") {
			return true
		}
	}
	return false
}

// climbsOut reports a URL (after its scheme) whose path, decoded, climbs
// with ../, and the absolute path it names after the last climb
// (/static/..%2f..%2fhome%2fdev%2f.ssh%2fid_rsa → /home/dev/.ssh/id_rsa).
func climbsOut(rest string) (string, bool) {
	p := rest
	if i := strings.IndexByte(p, '/'); i >= 0 {
		p = p[i:]
	} else {
		return "", false
	}
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	for range 3 {
		dec, err := url.PathUnescape(p)
		if err != nil || dec == p {
			break
		}
		p = dec
	}
	p = strings.ReplaceAll(p, "\\", "/")
	i := strings.LastIndex(p, "../")
	if i < 0 {
		return "", false
	}
	tail := strings.TrimLeft(p[i+3:], "/")
	for strings.HasPrefix(tail, "../") {
		tail = strings.TrimLeft(tail[3:], "/")
	}
	return "/" + tail, true
}

// dataFormActionRe finds a form that submits to an http(s) URL.
var dataFormActionRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`<form\b[^>]*\baction\s*=\s*["']?(https?://[^"'\s>]+)`)
})

// dataURLContent is the decoded content of a data: URL ("" when it cannot
// be decoded).
func dataURLContent(v string) string {
	meta, data, ok := strings.Cut(v[5:], ",")
	if !ok {
		return ""
	}
	if strings.HasSuffix(strings.ToLower(meta), ";base64") {
		dec, err := base64.StdEncoding.DecodeString(strings.TrimSpace(data))
		if err != nil {
			dec, err = base64.RawStdEncoding.DecodeString(strings.TrimSpace(data))
		}
		if err != nil {
			return ""
		}
		return string(dec)
	}
	if dec, err := url.PathUnescape(data); err == nil {
		return dec
	}
	return data
}

// serverCodeRuns reports JavaScript that starts programs or loads modules
// (require('child_process').execSync(…), process.binding).
func serverCodeRuns(v string) bool {
	low := strings.ToLower(v)
	for _, marker := range []string{"child_process", "execsync(", "spawnsync(", "process.binding", "process.mainmodule", "require("} {
		if strings.Contains(low, marker) {
			return marker != "require(" || strings.Contains(low, "function")
		}
	}
	return false
}

// editedText joins the new text of an edit tool's edits (edits[].newText,
// new_string, new_str); "" when there are none.
func editedText(top map[string]any) string {
	var parts []string
	add := func(m map[string]any) {
		for _, k := range []string{"newText", "new_text", "new_string", "new_str", "replacement"} {
			if v, ok := m[k].(string); ok {
				parts = append(parts, v)
			}
		}
	}
	add(top)
	if edits, ok := top["edits"].([]any); ok {
		for _, e := range edits {
			if m, ok := e.(map[string]any); ok {
				add(m)
			}
		}
	}
	return strings.Join(parts, "\n")
}

// firstString is the first string value under one of keys of a tool
// input's top level ("" when none).
// harmlessCIWrite reports a CI pipeline write the rules understand and
// allow: an edit whose new text holds no step, action, trigger, permission
// or secret (node-version: [18, 20]), or a whole pipeline whose every
// command the rules allow, using only GitHub's own actions, on ordinary
// triggers.
func (p *Policy) harmlessCIWrite(path, content string, top map[string]any, ev *hook.Event, ctx Context) bool {
	if content == "" || len(content) > 16<<10 || ctx.depth >= maxNestedDepth {
		return false
	}
	low := strings.ToLower(content)
	for _, w := range []string{"pull_request_target", "workflow_run", "permissions", "secrets", "${{", "self-hosted", "curl", "wget", "| sh", "|sh", "bash -c"} {
		if strings.Contains(low, w) {
			return false
		}
	}
	if _, ok := top["edits"]; ok {
		// edit_file: only the new text is known; it changes no step.
		return !ciKeyRe().MatchString(low)
	}
	for _, m := range ciUsesRe().FindAllStringSubmatch(content, 32) {
		if !strings.HasPrefix(m[1], "actions/") && !strings.HasPrefix(m[1], "github/") {
			return false // a third party's action runs with the job's token
		}
	}
	inner := ctx
	inner.depth++
	verdict := func(code string) hook.Decision {
		return p.Evaluate(&hook.Event{Kind: hook.KindShell, Command: code, Cwd: ev.Cwd, WorkspaceRoots: ev.WorkspaceRoots}, inner).Decision
	}
	abs := path
	if !strings.HasPrefix(path, "/") {
		abs = virtualWorkspace + "/" + strings.TrimPrefix(path, "./")
	}
	danger, harmless := effects.LaterVerdictOf(abs, content, verdict)
	return danger == "" && harmless
}

// ciKeyRe finds the keys of a pipeline that say what runs, when and with
// what (a step, an action, a trigger, the environment).
var ciKeyRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)(^|[\s{,-])(on|run|runs|uses|steps|env|script|before_script|after_script|command|commands|image|services|container|with)\s*:`)
})

// ciUsesRe finds the actions a workflow uses (uses: owner/name@ref).
var ciUsesRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)\buses:\s*["']?([^\s"'@]+)`)
})

// memoryWrite reports a tool that stores text for the agent's later
// sessions: a memory or knowledge-graph server's writes.
func memoryWrite(server, tool string) bool {
	words := toolWords(tool)
	mem := strings.Contains(server, "memory") || strings.Contains(server, "knowledge") || strings.Contains(server, "mem0")
	for _, w := range words {
		switch w {
		case "observation", "observations", "entities", "entity", "memory", "memories", "remember", "memorize":
			mem = true
		}
	}
	if !mem {
		return false
	}
	for _, w := range words {
		switch w {
		case "add", "create", "save", "store", "remember", "memorize", "update", "write", "set", "upsert":
			return true
		}
	}
	return false
}

// writtenContent is the text a file tool writes to the path p: the content
// of p's entry in a files list (push_files), else the input's own content;
// base64 content (a code host's API form) decoded when it is text.
func writtenContent(top map[string]any, p, content string) string {
	if files, ok := top["files"].([]any); ok {
		for _, f := range files {
			if fm, ok := f.(map[string]any); ok && firstString(fm, "path", "file_path", "filePath") == p {
				content = firstString(fm, "content", "contents", "text")
				break
			}
		}
	}
	if content != "" && !strings.ContainsAny(strings.TrimSpace(content), " \n:") && len(content) >= 16 {
		if b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(content)); err == nil && utf8.Valid(b) {
			return string(b)
		}
	}
	return content
}

func firstString(top map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := top[k].(string); ok {
			return s
		}
	}
	return ""
}

// codeLanguage is the language of a file, by its extension ("" for other
// files).
func codeLanguage(p string) string {
	switch strings.ToLower(path.Ext(p)) {
	case ".py":
		return "python"
	case ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts":
		return "node"
	case ".rb":
		return "ruby"
	case ".php":
		return "php"
	case ".pl", ".pm":
		return "perl"
	}
	return ""
}

// sourceFile reports a path of program source in a language the rules do
// not analyze in full (or do): the string literals it hands to a shell count.
func sourceFile(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".rb", ".php", ".pl", ".pm", ".rs", ".go", ".java", ".kt", ".kts",
		".swift", ".c", ".cc", ".cpp", ".cs", ".scala", ".groovy", ".gradle", ".lua", ".r", ".ex", ".exs":
		return true
	}
	return false
}

// isEnvrc reports a direnv .envrc file.
func isEnvrc(p string) bool {
	return strings.EqualFold(path.Base(strings.ReplaceAll(p, "\\", "/")), ".envrc")
}

// envrcLineRe is an .envrc line that sets a literal variable or calls a
// direnv helper that runs nothing of its own.
var envrcLineRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(export\s+[A-Za-z_][A-Za-z0-9_]*=("[^"$` + "`" + `\\]*"|'[^']*'|[^\s$` + "`" + `;|&<>()'"]*)|layout\s+(node|python3?|go|ruby|php|perl|pipenv|poetry|uv)|dotenv(_if_exists)?(\s+[\w./-]+)?|PATH_add\s+[\w./-]+|watch_file\s+[\w./-]+|source_up(_if_exists)?)$`)
})

// harmlessEnvrc reports .envrc content (known, not empty) that only sets
// literal variables and calls direnv's own helpers.
func harmlessEnvrc(content string) bool {
	all, n := effects.EveryLine(content, "#", func(line string) bool {
		return envrcLineRe().MatchString(line) && !strings.Contains(line, "..")
	})
	return all && n > 0
}

// runsByItself names what a written path is when writing it makes code run
// later on its own or changes what guards the agent; "" otherwise.
func runsByItself(classes []string, p string) string {
	switch {
	case slices.Contains(classes, effects.ClassGuard):
		return "the guard's or the agent's configuration"
	case slices.Contains(classes, effects.ClassVCS):
		return "version-control internals that run or configure later git commands"
	case slices.Contains(classes, effects.ClassPersistence):
		return "a start-up file that runs later by itself"
	case strings.EqualFold(path.Base(strings.ReplaceAll(p, "\\", "/")), ".envrc"):
		return "an .envrc, which direnv runs on entering the folder"
	}
	return ""
}

func fileURLPath(rest string) string {
	if i := strings.IndexByte(rest, '/'); i > 0 {
		rest = rest[i:] // file://localhost/…, file://host/…
	}
	if dec, err := url.PathUnescape(rest); err == nil {
		rest = dec
	}
	return rest
}

func hostOf(v string) string {
	if u, err := url.Parse(v); err == nil && u.Host != "" {
		return u.Host
	}
	return v
}

// pathValue reports a value that names a file: under a key that says so,
// or shaped like an absolute or home path.
func pathValue(key, v string) bool {
	if strings.ContainsAny(v, "\n") || len(v) > 4096 {
		return false
	}
	return isPathKey(key) || sourceKey(key) || targetKey(key) || strings.HasPrefix(v, "~/") || hasSystemRoot(v) ||
		strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || strings.Contains(v, "\\") && strings.Contains(v, ".")
}

func sourceKey(k string) bool {
	switch k {
	case "source", "src", "from", "old_path", "oldpath", "source_path", "from_path", "old_name":
		return true
	}
	return false
}

func targetKey(k string) bool {
	switch k {
	case "destination", "dest", "target", "to", "new_path", "newpath", "destination_path", "target_path", "to_path",
		"output", "output_path", "outfile", "new_name", "filename", "file_name", "path", "file_path", "filepath", "file", "paths":
		return true
	}
	return false
}

func sqlKey(k string) bool {
	switch k {
	case "sql", "query", "statement", "q", "sql_query", "querystring", "query_string", "command", "script":
		return true
	}
	return false
}

// toolWords splits a tool name into lower-case words.
func toolWords(tool string) []string {
	return strings.FieldsFunc(tool, func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ' ' || r == '/' })
}

var (
	sensitiveColumnsRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(passw|secret|token|api_?key|credential|\bssn\b|credit_card|card_number|pg_shadow|pg_authid|totp|recovery_code|private_key)`)
	})
	// secretColumnRe is a column or field whose name ends in what it
	// stores: a password or its hash, a token, a secret or key, an MFA seed
	// (access_token, password_hash, hashedPassword; not password_reset_at).
	secretColumnRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^[\w$.]*?(password|passwd|password_?hash|pass_?hash|secret|secret_?key|token|api_?key|private_?key|totp_?secret|otp_?secret|mfa_?secret|recovery_?codes?|encrypted_value|password_value)$`)
	})
	selectListRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?is)\bselect\s+(.*?)\s+from\b`)
	})
	// credentialTablesRe names the tables and columns where database
	// engines keep their own accounts' password hashes.
	credentialTablesRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(mysql\s*\.\s*user|authentication_string|pg_shadow|pg_authid|sys\s*\.\s*sql_logins|sys\s*\.\s*syslogins|password_hash\s*\(|sys\s*\.\s*user\$|dba_users|system\s*\.\s*users|mysql\s*\.\s*global_priv|vault\s*\.\s*decrypted_secrets|decrypted_secret)\b`)
	})
	// streamWrapperRe is a PHP or archive stream wrapper inside a URL's
	// query (local file inclusion).
	streamWrapperRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(^|[?&=/])(php|phar|expect|zip|glob|data)(://|%3a%2f%2f)`)
	})
	// lifecycleScriptRe is an npm lifecycle script in package.json text.
	lifecycleScriptRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`"(preinstall|install|postinstall|prepare|prepublish|prepack|postpack)"\s*:\s*"((?:[^"\\]|\\.)*)"`)
	})
	// vaultSecretsRe is a HashiCorp Vault API path that reads a secret.
	vaultSecretsRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)/v1/(secret|kv|kv-v2|secrets)/(data/)?[^?#\s]+`)
	})
	// kubeSecretsRe is a Kubernetes API path that lists or reads secrets.
	kubeSecretsRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)/api/v1/(namespaces/[^/?#]+/)?secrets\b`)
	})
	stackedRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)['")]\s*;\s*(drop|truncate|delete\s+from|alter\s+table|update\s+[\w."]+\s+set|insert\s+into|grant|exec(ute)?|shutdown)\b|;\s*(drop|truncate)\s+(table|database|schema)\b`)
	})
)

// selectsSecretColumns names the credential columns a query's first
// select list reads ("" when none).
func selectsSecretColumns(sql string) string {
	var found []string
	// Every SELECT list: … UNION SELECT id, stripe_secret_key FROM … reads
	// the column as much as the first list would.
	for _, m := range selectListRe().FindAllStringSubmatch(sql, 8) {
		for _, col := range strings.Split(m[1], ",") {
			f := strings.Fields(col)
			if len(f) == 0 {
				continue
			}
			name := strings.Trim(f[0], "`\"[]")
			if secretColumn(name) && !slices.Contains(found, name) {
				found = append(found, name)
			}
		}
	}
	return strings.Join(found, ", ")
}

// projectionKey reports a key that lists the fields a query returns.
func projectionKey(k string) bool {
	return k == "projection" || k == "fields" || k == "select" || k == "columns" || k == "attributes"
}

// secretColumn reports a column or field name that says it stores a
// credential.
func secretColumn(name string) bool { return secretColumnRe().MatchString(strings.TrimSpace(name)) }

// sensitiveColumns reports SQL that reads passwords, tokens, keys or
// payment data: read-only, but not routine.
func sensitiveColumns(sql string) bool {
	// Names only: a string literal (LIKE '%password_reset%') is not a
	// column read, and a column about a secret's metadata
	// (password_reset_sent_at, token_expires_at) holds no secret.
	if !sensitiveColumnsRe().MatchString(sql) {
		return false
	}
	sql = sqlLiteralRe().ReplaceAllString(sql, "''")
	for _, id := range sqlIdentRe().FindAllString(sql, -1) {
		if sensitiveColumnsRe().MatchString(id) && !metadataColumn(strings.ToLower(id)) {
			return true
		}
	}
	return false
}

var (
	sqlLiteralRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`'(?:[^']|'')*'`) })
	sqlIdentRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`) })
)

// metadataColumn reports a column named for when or how often something
// happened to a secret, not the secret itself.
func metadataColumn(id string) bool {
	for _, suf := range []string{"_at", "_on", "_date", "_time", "_count", "_sent", "_requested", "_changed", "_updated", "_expires",
		"_length", "_policy", "_attempts", "_required", "_enabled", "_set", "_type", "_id_count"} {
		if strings.HasSuffix(id, suf) {
			return true
		}
	}
	return false
}

// stackedStatement reports a value that ends a SQL statement and starts a
// destructive one, as an injection into a name or a filter does.
func stackedStatement(v string) bool { return strings.Contains(v, ";") && stackedRe().MatchString(v) }

// freeTextKey reports keys that hold prose (issue bodies, messages), where
// SQL is quoted rather than run.
func freeTextKey(k string) bool {
	for _, w := range []string{"body", "text", "content", "description", "message", "comment", "title", "summary",
		"markdown", "note", "prompt", "instructions", "diff", "patch", "snippet", "code"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// readingTool reports a tool whose name starts with a verb that only reads.
// metadataTool reports a tool that returns what a file system says about a
// path (size, times, mode, whether it exists), not what the file holds.
func metadataTool(tool string) bool {
	switch strings.ToLower(strings.Join(toolWords(tool), "")) { // get_file_info, getFileInfo
	case "getfileinfo", "fileinfo", "stat", "lstat", "getfilestats", "filestats", "getmetadata", "getfilemetadata",
		"fileexists", "exists", "pathexists", "checkfileexists",
		// Listings: the names in a folder, not what the files hold.
		"listdirectory", "listdir", "listfiles", "listfolder", "directorytree", "listdirectorywithsizes", "ls", "tree":
		return true
	}
	return false
}

func readingTool(tool string) bool {
	w := toolWords(tool)
	if len(w) == 0 {
		return false
	}
	switch w[0] {
	case "get", "list", "search", "read", "describe", "fetch", "find", "show", "view", "lookup", "stat", "info", "head",
		"tail", "grep", "glob", "tree", "open", "cat", "inspect", "preview", "count", "check", "diff":
		return !writingTool(tool)
	}
	return false
}

// postsOutward reports a tool that posts text for other people to read (a
// message, an issue, a comment, a page), not one that writes a file.
func postsOutward(tool string, top map[string]any) bool {
	if firstString(top, "path", "file_path", "filePath", "filename") != "" {
		return false
	}
	for _, w := range toolWords(tool) {
		switch w {
		case "post", "send", "comment", "message", "reply", "publish", "share", "issue", "page", "ticket", "gist", "discussion", "note":
			return true
		}
	}
	return false
}

// postsToRecord reports a tool that files text on a project's record (an
// issue, a comment, a gist, a wiki page) rather than sending a message.
func postsToRecord(tool string) bool {
	for _, w := range toolWords(tool) {
		switch w {
		case "issue", "comment", "gist", "discussion", "page", "wiki", "ticket":
			return true
		}
	}
	return false
}

// personalData describes the contact details of several people in text
// (two or more personal email addresses, or phone numbers with an address
// or of three people), or returns "". Work addresses alone (a team's
// list) and example domains do not count.
func personalData(s string) string {
	if len(s) > 256<<10 {
		s = s[:256<<10]
	}
	personal := map[string]bool{}
	for _, m := range emailRe().FindAllString(s, 200) {
		m = strings.ToLower(m)
		_, domain, _ := strings.Cut(m, "@")
		if consumerMailDomain(domain) {
			personal[m] = true
		}
	}
	phones := map[string]bool{}
	for _, m := range phoneRe().FindAllString(s, 200) {
		if strings.Trim(m, "0123456789.") == "" {
			continue // 192.168.10.200: an address, a version
		}
		digits := strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, m)
		if len(digits) >= 9 && len(digits) <= 15 && !strings.HasPrefix(digits, "000") {
			phones[digits] = true
		}
	}
	if len(personal) >= 2 || len(phones) >= 3 || len(phones) >= 2 && len(personal) >= 1 {
		return fmt.Sprintf("contact details of several people (%d personal email addresses, %d phone numbers)", len(personal), len(phones))
	}
	return ""
}

// consumerMailDomain reports a mail provider for private persons.
func consumerMailDomain(d string) bool {
	switch d {
	case "gmail.com", "googlemail.com", "yahoo.com", "yahoo.co.uk", "yahoo.fr", "yahoo.de", "ymail.com", "outlook.com", "hotmail.com",
		"hotmail.co.uk", "hotmail.fr", "live.com", "msn.com", "icloud.com", "me.com", "mac.com", "aol.com", "proton.me",
		"protonmail.com", "gmx.de", "gmx.net", "gmx.com", "web.de", "t-online.de", "freenet.de", "mail.ru", "yandex.ru",
		"qq.com", "163.com", "126.com", "naver.com", "orange.fr", "free.fr", "laposte.net", "libero.it", "virgilio.it",
		"btinternet.com", "comcast.net", "verizon.net", "att.net", "sbcglobal.net", "zoho.com", "fastmail.com", "hey.com",
		"seznam.cz", "wp.pl", "o2.pl", "interia.pl", "bluewin.ch", "telenet.be", "skynet.be", "xs4all.nl", "ziggo.nl",
		"rediffmail.com", "uol.com.br", "bol.com.br", "terra.com.br":
		return true
	}
	return false
}

var (
	emailRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`) })
	phoneRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:\+\d{1,3}[\s.-]?)?\(?\d{2,4}\)?[\s.-]\d{3,4}[\s.-]\d{3,4}(?:[\s.-]\d{2,4})?`)
	})
)

func writingTool(tool string) bool {
	for _, w := range toolWords(tool) {
		switch w {
		case "write", "edit", "create", "save", "update", "put", "upload", "append", "patch", "replace", "move",
			"rename", "copy", "mkdir", "insert", "apply", "commit", "overwrite", "modify", "set":
			return true
		}
	}
	return false
}

func movingTool(tool string) bool {
	for _, w := range toolWords(tool) {
		if w == "move" || w == "rename" || w == "mv" {
			return true
		}
	}
	return false
}

func databaseTool(name string) bool {
	for _, w := range []string{"sql", "postgres", "pg", "mysql", "maria", "sqlite", "supabase", "database", "db", "bigquery",
		"snowflake", "clickhouse", "redshift", "mssql", "oracle", "neon", "planetscale", "turso", "duckdb", "query", "cockroach",
		"databricks", "athena", "trino", "presto", "d1", "execute"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// secretHuntRe matches a search query made of what credentials start with
// or are named: a provider's token prefix, a private key's armor, a
// credential variable.
var secretHuntRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|[\s"'(:=])(AKIA|ASIA|ghp_|gho_|ghs_|github_pat_|glpat-|sk_live|rk_live|filename:\.?env\b|filename:id_rsa|filename:\.npmrc|filename:credentials|extension:pem|sk-proj-|sk-ant-|xox[abpr]-|hooks\.slack\.com/services|npm_[a-z0-9]|pypi-Ag|AIza|SG\.|dop_v1_|hvs\.)|` +
		`BEGIN (RSA |OPENSSH |EC |DSA |PGP |ENCRYPTED )?PRIVATE KEY|\b(aws_secret_access_key|secret_access_key|client_secret|private_key_id|db_password|database_password)\b|\bpassword\s*[=:]`)
})

// typesPassword reports a browser tool typing a real-looking password into a
// password field (browser_type {"element": "Password field", "text": "…"}):
// a login somewhere with a credential, for a person to decide. Test values
// (test123, changeme, a placeholder) on a test login are not.
func typesPassword(tool string, top map[string]any) string {
	if !strings.Contains(tool, "type") && !strings.Contains(tool, "fill") {
		return ""
	}
	field := strings.ToLower(firstString(top, "element", "selector", "ref", "label", "field", "name", "locator"))
	if !strings.Contains(field, "password") && !strings.Contains(field, "passcode") && !strings.Contains(field, "secret") &&
		!strings.Contains(field, "api key") && !strings.Contains(field, "token") {
		return ""
	}
	v := firstString(top, "text", "value", "input", "keys")
	if len(v) < 8 || secrets.Placeholder(v) || strings.ContainsAny(v, " ") {
		return ""
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return r < 'a' || r > 'z' }) {
		switch w {
		case "test", "testing", "demo", "dev", "local", "example", "dummy", "fake", "sample", "seed", "e2e", "qa":
			return "" // test-password-123: a seeded test account's
		}
	}
	return "types a password into a page (" + text.Truncate(field, 60) + ")"
}

// clicksDestructive reports a browser tool acting on a control that deletes
// or gives away a whole resource (GitHub's "I understand the consequences,
// delete this repository"): deny; or one that says it cannot be undone: for
// a person to decide. Clicking "Delete" on a to-do in the app under test is
// neither.
func clicksDestructive(tool string, top map[string]any) (deny bool, why string) {
	low := strings.ToLower(tool)
	if !strings.Contains(low, "click") && !strings.Contains(low, "press") && !strings.Contains(low, "tap") &&
		!strings.Contains(low, "submit") && !strings.Contains(low, "select") {
		return false, ""
	}
	var target []string
	for _, k := range []string{"element", "selector", "ref", "label", "text", "name", "locator", "description", "button", "value"} {
		if s := firstString(top, k); s != "" {
			target = append(target, s)
		}
	}
	what := strings.ToLower(strings.Join(target, " "))
	switch {
	case what == "":
	case destroysResourceRe().MatchString(what):
		return true, "clicks a control that deletes or gives away a whole resource (" + text.Truncate(strings.Join(target, " "), 80) + ")"
	case irreversibleRe().MatchString(what):
		return false, "clicks a control that cannot be undone (" + text.Truncate(strings.Join(target, " "), 80) + ")"
	}
	return false, ""
}

var (
	destroysResourceRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`i understand the consequences|\b(delete|remove|destroy|transfer|archive)[\s_-]+(this[\s_-]+|the[\s_-]+|my[\s_-]+)?(repository|repo|organization|org|account|project|bucket|database|cluster|workspace|team)\b`)
	})
	irreversibleRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`permanently|cannot be undone|can't be undone|irreversibl|\b(close|deactivate)[\s_-]+(my[\s_-]+|this[\s_-]+)?account|\brevoke[\s_-]+(all[\s_-]+)?(tokens|keys|sessions|access)|\bmake[\s_-]+(this[\s_-]+)?(repository|repo|project|bucket)[\s_-]+public|change[\s_-]+(repository|repo)?[\s_-]*visibility`)
	})
)

// jsStringRe matches a single- or double-quoted JavaScript string.
var jsStringRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"`) })

// readOnlyPageScript reports a short page script that reads the document
// (its title, text, element counts and attributes) and nothing else: no
// assignment, no call that sends, stores, navigates or acts, and nothing
// that reaches cookies, storage or form values.
func readOnlyPageScript(code string) bool {
	if len(code) > 600 || !strings.Contains(code, "document.") {
		return false
	}
	low := strings.ToLower(code)
	bare := jsStringRe().ReplaceAllString(low, "''") // a selector's = is not an assignment
	for _, op := range []string{"=>", "===", "!==", "==", "<=", ">="} {
		bare = strings.ReplaceAll(bare, op, " ")
	}
	if strings.ContainsAny(bare, "=`") {
		return false
	}
	for _, w := range []string{"cookie", "storage", "fetch", "xmlhttp", "beacon", "socket", "eval", "function", "import", "require",
		"location", "open(", "postmessage", "click", "submit", "dispatch", "focus", "innerhtml", "outerhtml", "insert", "append",
		"remove", "setattribute", "value", "password", "token", "secret", "key", "credential", "process", "worker", "cache",
		"indexeddb", "navigator", "history", "write", "execcommand", "settimeout", "setinterval", "constructor", "prototype",
		"__proto__", "globalthis", "window.", "self.", "top.", "parent.", "frames"} {
		if strings.Contains(low, w) {
			return false
		}
	}
	return true
}

// deniedCICommand returns the first command of a CI pipeline's content
// that the rules deny when run here ("" when none is, or the content is
// not read: nesting too deep, or too long).
func (p *Policy) deniedCICommand(content string, ev *hook.Event, ctx Context) string {
	if content == "" || len(content) > 64<<10 || ctx.depth >= maxNestedDepth {
		return ""
	}
	inner := ctx
	inner.depth++
	for _, cmd := range effects.CICommands(content) {
		if cmd == "" {
			continue
		}
		if p.Evaluate(&hook.Event{Kind: hook.KindShell, Command: cmd, Cwd: ev.Cwd, WorkspaceRoots: ev.WorkspaceRoots}, inner).Decision == hook.Deny {
			return cmd
		}
	}
	return ""
}

// revealsStoredSecret reports a call that returns a stored secret's value:
// a "reveal" flag set, or a password manager's or secret store's read of an
// item, secret or password.
func revealsStoredSecret(server, tool string, top map[string]any) bool {
	if b, ok := top["reveal"].(bool); ok && b {
		return true
	}
	store := false
	for _, w := range []string{"1password", "onepassword", "bitwarden", "lastpass", "keeper", "dashlane", "keepass", "vault", "secretsmanager",
		"secrets-manager", "keychain", "doppler", "infisical"} {
		if strings.Contains(server, w) {
			store = true
			break
		}
	}
	if !store {
		return false
	}
	words := toolWords(tool)
	reads, item := false, false
	for _, w := range words {
		switch w {
		case "get", "read", "reveal", "show", "fetch", "view", "retrieve":
			reads = true
		case "item", "secret", "secrets", "password", "credential", "credentials", "login", "value", "field":
			item = true
		}
	}
	return reads && item
}

// personalColumns counts the personal-data columns a query selects
// (email, phone, date of birth, address, card digits, national ids).
func personalColumns(sql string) int {
	m := selectListRe().FindStringSubmatch(sql)
	if m == nil {
		return 0
	}
	n := 0
	for _, col := range strings.Split(m[1], ",") {
		if personalColumnRe().MatchString(strings.TrimSpace(col)) {
			n++
		}
	}
	return n
}

// limitedRows reports a query that returns a bounded number of rows
// (LIMIT n, TOP n, FETCH FIRST n, WHERE id = …).
func limitedRows(sql string) bool {
	return limitRe().MatchString(sql)
}

var (
	personalColumnRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(e_?mail|phone|mobile|date_?of_?birth|dob|birth_?date|address|street|postcode|zip|last_?4|card_last4|ssn|national_id|passport|full_?name|first_?name|last_?name)\w*\s*$`)
	})
	limitRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\blimit\s+\d+|\btop\s*\(?\s*\d+|\bfetch\s+first\s+\d+|\bwhere\s+[\w.]*id\s*=`)
	})
)

// systemAccountFile reports the system files a local-file probe reads:
// account lists, host and network configuration, process details.
func systemAccountFile(p string) bool {
	switch path.Clean(p) {
	case "/etc/passwd", "/etc/group", "/etc/hosts", "/etc/hostname", "/etc/issue", "/etc/os-release", "/etc/resolv.conf",
		"/etc/sudoers", "/etc/crontab", "/proc/version", "/proc/self/cmdline", "/proc/self/status", "/proc/net/tcp",
		"/proc/net/arp", "/windows/win.ini", "/boot.ini":
		return true
	}
	return false
}

// branchFileWrite says why a code host's file write is routine ("" when it
// is not): ordinary project files (not CI pipelines, hooks, the agent's or
// the guard's configuration, credentials) written to a named branch that is
// not a protected one.
func (p *Policy) branchFileWrite(tool string, top map[string]any, ctx Context) (why string, isWrite bool) {
	switch tool {
	case "create_or_update_file", "push_files", "create_file", "update_file", "commit_files", "create_commit":
	default:
		return "", false
	}
	return p.branchFileWriteWhy(top, ctx), true
}

func (p *Policy) branchFileWriteWhy(top map[string]any, ctx Context) string {
	branch := firstString(top, "branch", "branch_name", "ref")
	if branch == "" || strings.ContainsAny(branch, "*$`") {
		return ""
	}
	for _, b := range p.Settings.ProtectedBranches {
		if ok, _ := path.Match(b, strings.TrimPrefix(branch, "refs/heads/")); ok || b == branch {
			return ""
		}
	}
	var paths []string
	if pth := firstString(top, "path", "file_path", "filePath"); pth != "" {
		paths = append(paths, pth)
	}
	if files, ok := top["files"].([]any); ok {
		for _, f := range files {
			fm, _ := f.(map[string]any)
			pth := firstString(fm, "path", "file_path", "filePath")
			if pth == "" {
				return ""
			}
			paths = append(paths, pth)
		}
	}
	if len(paths) == 0 {
		return ""
	}
	root := virtualWorkspace
	if len(ctx.WorkspaceRoots) > 0 {
		root = ctx.WorkspaceRoots[0]
	}
	for _, pth := range paths {
		if strings.HasPrefix(pth, "/") || strings.Contains(pth, "..") || strings.ContainsAny(pth, "$`~") {
			return ""
		}
		for _, cl := range effects.PathClassesOf(path.Join(root, pth), root, ctx.Home) {
			switch cl {
			case effects.ClassCI, effects.ClassHooks, effects.ClassAgent, effects.ClassGuard, effects.ClassPersistence,
				effects.ClassSecret, effects.ClassEnvFile, effects.ClassVCS, effects.ClassVCSOther:
				return ""
			}
		}
	}
	return "writes project files to the working branch " + branch + ", which a pull request reviews"
}

// scopedRowWrites reports SQL whose only non-reading statements change some
// rows (INSERT, or DELETE and UPDATE with a real WHERE) or create a table
// or index.
func scopedRowWrites(sv sqlscan.Verdict) bool {
	if len(sv.Dangers) > 0 || len(sv.Unknown) == 0 {
		return false
	}
	for _, u := range sv.Unknown {
		switch {
		case u == "DELETE of some rows", u == "UPDATE of some rows", u == "INSERT statement", u == "CREATE statement":
			// Rows changed, a table or index made: routine on a development
			// database (a dropped table, even a scratch one, is a question).
		default:
			return false
		}
	}
	return true
}

// privilegeUpdateRe matches SQL that sets a column about who may do what.
var privilegeUpdateRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(role|roles|is_?admin|admin|is_?staff|is_?superuser|superuser|permissions?|privileges?|scopes?|raw_app_meta_data|app_metadata|password\w*|api_?key\w*|token\w*|mfa\w*|verified)\b`)
})

// privilegeUpdate reports SQL that writes accounts' roles, rights or
// credentials: whoever runs it decides who gets in.
func privilegeUpdate(sql string) bool {
	return privilegeUpdateRe().MatchString(sql)
}

// codeDDLRe matches SQL that creates code, accounts or links on the
// database server (functions in untrusted languages run programs there).
var codeDDLRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\bcreate\s+(or\s+replace\s+)?(trusted\s+)?(function|procedure|extension|trigger|language|role|user|server|foreign|rule|event|policy|schema|publication|subscription|aggregate|operator|cast)\b`)
})

// codeDDL reports SQL that creates code, accounts or links on the server.
func codeDDL(sql string) bool { return codeDDLRe().MatchString(sql) }

// devDatabaseNameRe matches a database or file name that says it is for
// development or tests.
var devDatabaseNameRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|[_.-])(dev|development|test|testing|local)([_.-]|$)`)
})

// notDevNameRe matches a name that says production or a shared environment.
var notDevNameRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)prod|live|staging|stage|shared|replica|primary|master`)
})

// localDevDatabase names the development database an MCP server works on,
// from its launch command: a SQLite file inside the workspace whose name
// says nothing of production, or a server URL on this machine whose
// database name says development or test. "" when it is not one.
func localDevDatabase(ev *hook.Event, top map[string]any, ctx Context) string {
	words := strings.Fields(ev.ServerCommand)
	for i, w := range words {
		switch {
		case (w == "--db-path" || w == "--db" || w == "--database") && i+1 < len(words):
			w = words[i+1]
		case strings.HasPrefix(w, "--db-path="):
			w = strings.TrimPrefix(w, "--db-path=")
		}
		w = strings.Trim(w, "\"'")
		low := strings.ToLower(w)
		if strings.HasSuffix(low, ".db") || strings.HasSuffix(low, ".sqlite") || strings.HasSuffix(low, ".sqlite3") {
			abs := effects.NormalizePath(w, ctx.Cwd, ctx.Home)
			if abs != "" && inWorkspace(abs, ctx) && !notDevNameRe().MatchString(path.Base(abs)) {
				return abs
			}
			continue
		}
		if i := strings.Index(low, "://"); i > 0 && (strings.HasPrefix(low, "postgres") || strings.HasPrefix(low, "mysql") || strings.HasPrefix(low, "mariadb")) {
			u, err := url.Parse(w)
			if err != nil {
				continue
			}
			host := u.Hostname()
			name := strings.TrimPrefix(u.Path, "/")
			if (host == "localhost" || host == "127.0.0.1" || host == "::1") && name != "" &&
				devDatabaseNameRe().MatchString(name) && !notDevNameRe().MatchString(name) {
				return host + "/" + name
			}
		}
	}
	return ""
}

// hiddenSegment reports a path with a hidden folder or file name in it
// (/tmp/.cache-03b9, ~/.local/.x), the trash aside.
func hiddenSegment(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if strings.HasPrefix(seg, ".") && seg != "." && seg != ".." && seg != ".Trash" && !strings.Contains(p, "/.local/share/Trash/") {
			// The trash is where a person can still find it.
			return true
		}
	}
	return false
}

// secretFlagKeyRe matches an input switch that asks a tool to put secrets
// in its answer.
var secretFlagKeyRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(include|with|show|reveal|return|expose|export|unmask|print|get)[_-]?(secrets?|credentials?|passwords?|tokens?|keys|values)$|^(decrypt(ed)?|reveal|unmask(ed)?|plain_?text|show_?values|with_?decryption)$`)
})
