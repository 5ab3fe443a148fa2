package effects

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/hex"
	"io"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// What the per-language analysis of inline code can find.
const (
	foundDelete       = "deletes files"
	foundWrite        = "writes files"
	foundSpawn        = "runs other programs"
	foundNetwork      = "uses the network"
	foundEnv          = "reads the environment"
	foundDynamic      = "builds and runs code at run time"
	foundUnanalyzable = "cannot be analyzed"
	foundSecretPath   = "names a credential file"
	foundRecords      = "deletes or rewrites database records in bulk"
	foundDebuggee     = "runs the program it debugs"
	foundRemoteExec   = "runs code it downloads"
	foundEnvDump      = "sends the whole environment over the network"
	foundReverseShell = "connects a shell to a network socket"
	foundStartupHook  = "writes a file Python runs at every start (.pth, sitecustomize) that runs programs"
)

// pythonStartupRe finds the names of the files Python runs at start-up.
var pythonStartupRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`['"/][\w.-]*\.pth['"]|\b(?:site|user)customize\.py\b`)
})

// codeSignals are per-language patterns of what inline code does. A language
// not listed cannot be analyzed.
// They compile on first use: most hook processes never see inline code.
func codeSignalSources() map[string][]struct {
	found string
	re    string
} {
	return map[string][]struct {
		found string
		re    string
	}{
		"python": {
			{foundDelete, `\b(os\.(remove|unlink|rmdir|removedirs)|shutil\.(rmtree|move)|\.unlink\(|\.rmdir\(|send2trash)`},
			{foundWrite, `(?s)open\(.{0,200}?,\s*(mode\s*=\s*)?['"](w|a|x|r\+|wb|ab)|\.open\(\s*(mode\s*=\s*)?['"](w|a|x|r\+)|\bos\.open\(|\bfileinput\.\w+\([^)]*inplace|\.write_(text|bytes)\(|shutil\.(copy|copyfile|copytree)|os\.(rename|replace|chmod|chown|symlink|link|makedirs|mkdir)\(|\.(chmod|rename|replace|symlink_to|mkdir|touch)\(`},
			{foundSpawn, `\b(subprocess|os\.(system|popen|exec\w*|spawn\w*|fork|kill)|pty\.|commands\.|crontab|CronTab|sh\.|plumbum|invoke\.run)`},
			{foundNetwork, `\b(requests|urllib|http\.client|httpx|aiohttp|socket|smtplib|ftplib|paramiko|websocket|boto3|telnetlib)\b`},
			{foundEnv, `os\.environ|os\.getenv|getenv\(|gethostname\(|getpass\.getuser|platform\.node\(|os\.uname\(`},
			{foundRecords, `\.objects\.(all|filter|exclude|raw)\(.*?\)\s*\.(delete|update)\(|\.(query|execute)\(.*?\)\s*\.(delete|update)\(|\b(drop_all|drop_collection|drop_database|delete_many|update_many|flushdb|flushall)\s*\(|(?i:\.execute\(\s*(?:[a-z]*\()?\s*f?['"]\s*(drop|truncate|delete\s+from|update\s+\w+\s+set)\b)`},
			{foundDynamic, `\b(exec|eval)\b|\b(compile|__import__)\s*\(|\bgetattr\s*\(\s*(os|subprocess|shutil|builtins|__builtins__|importlib|sys|pty|socket)\b|__builtins__|\bbuiltins\.|\bglobals\(\)\s*\[|\brunpy\b|codecs\.decode\([^)]*rot|marshal|\b(c?pickle|dill|joblib|torch|shelve)\.(loads?|open)\b|\byaml\.(load|unsafe_load|full_load)\s*\(|importlib`},
		},
		"node": {
			{foundDelete, `\b(rmSync|rmdirSync|unlinkSync|rm|rmdir|unlink)\s*\(|rimraf|fs-extra|\.remove(Sync)?\(|emptyDir`},
			{foundWrite, `\b(writeFile|writeFileSync|appendFile|appendFileSync|createWriteStream|copyFile|copyFileSync|cpSync|renameSync|rename|chmod|chmodSync|chown|symlink|mkdirSync|mkdir|writeTextFile|writeTextFileSync|Bun\.write)\s*\(`},
			{foundSpawn, `child_process|\b(exec|execSync|spawn|spawnSync|execFile|execFileSync|fork)\s*\(|process\.kill|Deno\.(run|Command)|Bun\.spawn`},
			{foundNetwork, `\b(fetch|XMLHttpRequest|WebSocket)\s*\(|require\(\s*['"](https?|net|tls|dgram|dns|axios|node-fetch|got)['"]\)|from\s+['"](https?|net|axios|node-fetch)['"]|\bhttps?\.(get|request)`},
			{foundEnv, `process\.env|Deno\.env|Bun\.env|\.hostname\(\)|\.userInfo\(\)|\.networkInterfaces\(\)`},
			{foundRecords, `\.(deleteMany|updateMany|dropDatabase|dropCollection|flushdb|flushall|flushDb|flushAll)\s*\(|\.(destroy|truncate)\(\s*\{|\.drop\(\s*\)|\.sync\(\s*\{\s*force\s*:\s*true|\$executeRaw(Unsafe)?\s*[(\x60]\s*['"]?(?i:drop|truncate|delete\s+from)\b|(?i:\.(query|execute|raw)\(\s*['"\x60]\s*(drop|truncate|delete\s+from|update\s+\w+\s+set)\b)`},
			{foundDynamic, `\beval\b|new\s+Function|Function\s*\(|vm\.|atob\(|Buffer\.from\([^)]*base64|require\(\s*[^'"]|\bimport\s*\(\s*[^'"\x60\s)]|\bimport\s*\(\s*['"\x60]data:`},
		},
		"ruby": {
			{foundDelete, `File\.(delete|unlink)|FileUtils\.(rm\w*|remove\w*|mv)|Dir\.(delete|rmdir|unlink)`},
			{foundWrite, `(?s)File\.(write|open\(.{0,200}?['"][wa])|FileUtils\.(cp|mkdir|touch|chmod|ln)\w*|IO\.write|\.(puts|print|write)\b.{0,40}>>`},
			{foundSpawn, "\\b(system|exec|spawn|fork|Process\\.|IO\\.popen|Open3)\\b|`|%x|\\bsh\\s*[(\"'%]"},
			{foundNetwork, `Net::|Socket|open-uri|URI\.open|HTTParty|Faraday|RestClient`},
			{foundEnv, `ENV\[|ENV\.`},
			{foundRecords, `\.(delete_all|destroy_all|update_all|delete_by|destroy_by)\b|\b(drop_table|drop_database|truncate_tables?)\b|connection\.(truncate|execute)\b`},
			{foundDynamic, `\b(eval|instance_eval|class_eval|send|Base64)\b`},
		},
		"perl": {
			{foundDelete, `\b(unlink|rmdir|rmtree|remove_tree)\b`},
			{foundWrite, `open\s*\(?[^,]*,\s*['"]?[>+]|\b(rename|chmod|chown|mkdir|symlink|link|copy|move)\b`},
			// open(my $c, "|-", "crontab -"), open(FH, "| sh"), open(FH, "cmd |"):
			// a pipe to or from a command is a command run.
			{foundSpawn, "\\b(system|exec|fork|qx|kill)\\b|`|\\bopen\\s*\\(?[^;]*[\"']\\s*(\\|-|-\\|)\\s*[\"']|\\bopen\\s*\\(?[^,;]*,\\s*[\"']\\s*\\||\\bopen\\s*\\(?[^,;]*,\\s*[\"'][^\"';]*\\|\\s*[\"']"},
			{foundNetwork, `\b(IO::Socket|Socket|LWP|HTTP::|Net::)\b`},
			{foundEnv, `\$ENV\{|%ENV`},
			{foundDynamic, `\beval\b|MIME::Base64|decode_base64|\bpack\b`},
		},
		"php": {
			{foundDelete, `\b(unlink|rmdir)\s*\(|['"](unlink|rmdir)['"]`},
			{foundWrite, `\b(file_put_contents|fopen|fwrite|rename|copy|chmod|mkdir|touch)\s*\(`},
			{foundSpawn, "\\b(system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec)\\s*\\(|`"},
			{foundNetwork, `\b(curl_\w+|fsockopen|stream_socket_client|file_get_contents\s*\(\s*['"]https?)`},
			{foundEnv, `getenv|\$_ENV|\$_SERVER`},
			{foundDynamic, `\b(eval|assert|create_function|base64_decode|gzinflate|str_rot13)\s*\(`},
		},
		"sed": {
			{foundSpawn, `(^|[;{}\n])\s*([0-9$,/!]*\s*)?e(\s|;|$)|` + sedSubst + `[gpIiMm0-9]*e`},
			{foundWrite, `(^|[;{}\n])\s*([0-9$,/!]*\s*)?[wW]\s+\S|` + sedSubst + `[gpIiMm0-9]*w\s*\S`},
		},
		"awk": {
			{foundSpawn, `\bsystem\s*\(|\|\s*(getline|")|"\s*\|\s*getline|\|&|\bprint[f]?\b[^;}|]*\|\s*[A-Za-z_]\w*`},
			{foundWrite, `print[f]?\b[^;}]*>\s*("|[a-zA-Z_$])|fflush\s*\(|close\s*\(`},
			{foundNetwork, `/inet/`},
			{foundEnv, `ENVIRON`},
		},
		"r": {
			{foundDelete, `\b(unlink|file\.remove|fs::file_delete|fs::dir_delete)\s*\(`},
			{foundWrite, `\b(writeLines|write\.csv|write\.table|saveRDS|save|file\.copy|file\.rename|dir\.create|sink|file\.create|Sys\.chmod|file\.append)\s*\(|\bcat\s*\([^)]*\bfile\s*=`},
			{foundSpawn, `\b(system2?|shell|processx::run|callr::\w+)\s*\(`},
			{foundNetwork, `\b(download\.file|url|socketConnection|GET|POST|PUT|install\.packages|source_url|source_gist|install_github|install_url)\s*\(|\b(httr2?|curl|RCurl)::|\b(remotes|devtools|pak|renv)::(install\w*|source_\w+|pkg_install|pak|restore|update\w*|use_\w+)\b`},
			{foundEnv, `\bSys\.getenv\b`},
			{foundDynamic, `\b(eval|parse|source|sys\.source)\s*\(`},
		},
		"jq": {},
		// genericLang: words of the languages analyzeCode has no table for
		// (lua, julia, tcl, groovy, kotlin, elixir, elisp, racket,
		// PowerShell); only ever added to "cannot be analyzed".
		genericLang: {
			{foundDelete, `\bos\.remove\b|\brm\(|delete-directory|delete-file|Remove-Item|File\.(rm|rm_rf|delete)|deleteRecursively|deleteDir|\brmtree\b|\brm_rf\b|\bfile\s+delete\b|\bunlink\b`},
			{foundWrite, `\bio\.open\([^)]*,\s*["'][wa]|\bopen\([^)]*,\s*["'][wa]|\[open\s[^\]]*\s[wa]\]|File\.(write|open\([^)]*["'][wa])|Files\.write|\b(write|append)Text\(|FileWriter|PrintWriter|append-to-file|write-region|with-temp-file|Out-File|Set-Content|Add-Content|\bwrite\(|\.(?:append|appendText|setText|withWriter)\(|\.text\s*=|\bFile\.write!?\(`},
			{foundSpawn, `\bos\.execute\b|\bio\.popen\b|\brun\(\x60|\x60[^\x60\n]+\x60|System\.cmd\b|:os\.cmd\b|shell-command|call-process|start-process|Start-Process|\.execute\(\)|ProcessBuilder|Runtime\.getRuntime|\bsystem\(|\bexec\s|\bspawn\b|Command::new\(|\bexec\.Command(?:Context)?\(|syscall\.Exec\(|Process\.Start\(|\bpopen\(|\bexecv[pe]?\(|\bexecl[pe]?\(`},
			{foundNetwork, `https?://|\b(?:socket|Socket|TCPSocket|gen_tcp|httpc|HTTPoison|Finch|url-retrieve|open-network-stream|make-network-process|Downloads|Invoke-WebRequest|Invoke-RestMethod|iwr|irm|WebClient|HttpClient|openConnection)\b|\b(?:download|fetch|request)\(|HTTP\.(?:get|post|request)|/inet/`},
			{foundEnv, `\bos\.getenv\b|System\.(?:getenv|get_env)\b|\bgetenv\b|\$env\(|\$env:|\benv:|\bENV\[|process-environment`},
			{foundDynamic, `\b(?:eval|loadstring|dofile|include_string|Code\.eval_string|Invoke-Expression|iex)\b|Meta\.parse|FromBase64String|base64decode|\batob\(`},
		},
	}
}

// genericLang names the shared signals of dangerOnlyLangs.
const genericLang = "generic"

// dangerOnlyLangs are the languages whose code is read with the generic
// signals: for the dangers it spells out, never to allow it.
var dangerOnlyLangs = map[string]bool{"unanalyzed": true, "elixir": true, "elisp": true, "powershell": true}

// sedSubst matches a sed s command with any of the usual delimiters, up to its flags.
var sedSubst = `s(/(?:[^/\\]|\\.)*/(?:[^/\\]|\\.)*/|\|[^|]*\|[^|]*\||#[^#]*#[^#]*#|:[^:]*:[^:]*:|,[^,]*,[^,]*,|@[^@]*@[^@]*@|![^!]*![^!]*!|%[^%]*%[^%]*%)`

var (
	signalsOnce sync.Once
	codeSignals map[string][]signal
	quotedPath  *regexp.Regexp
)

type signal struct {
	found string
	re    *regexp.Regexp
}

func compileSignals() {
	quotedPath = regexp.MustCompile(quotedPathSource)
	srcMap := codeSignalSources()
	codeSignals = make(map[string][]signal, len(srcMap))
	for lang, srcs := range srcMap {
		sig := make([]signal, len(srcs))
		for i, s := range srcs {
			sig[i] = signal{s.found, regexp.MustCompile(s.re)}
		}
		codeSignals[lang] = sig
	}
}

// langAliases map interpreter languages to the analysis above.
var langAliases = map[string]string{"js": "node", "javascript": "node", "deno": "node", "bun": "node", "python3": "python"}

// analyzeCode reads inline code in lang for what it does.
func analyzeCode(lang, code string) CodeEffect {
	ce := CodeEffect{Kind: "inline", Lang: lang, What: short(code)}
	if l, ok := langAliases[lang]; ok {
		lang = l
	}
	code, starImport := canonicalNames(lang, code)
	ce.code = code
	code = homeLiterals(code)
	if lang == "vim" {
		if !vimEditsOnly(code) {
			ce.Found = []string{foundUnanalyzable}
			if strings.Contains(code, "writefile(") || strings.Contains(code, "system(") {
				// The file a writefile() or a shell call names is recorded
				// (codeFiles): a start-up file written is a write.
				ce.Found = append(ce.Found, foundWrite)
			}
			if strings.Contains(code, "delete(") || strings.Contains(code, "os.remove(") || strings.Contains(code, "fs_unlink(") ||
				strings.Contains(code, "os.rename(") || strings.Contains(code, "fs_rename(") {
				// delete(), lua's os.remove() and vim.uv.fs_unlink(): the
				// protected files it names are recorded as deleted (codeFiles).
				ce.Found = append(ce.Found, foundDelete)
			}
		}
		// -c 'edit ~/.cursor/hooks.json' -c '%delete' -c 'wq': the files it
		// opens are written when it writes (the analysis joins the -c).
		for _, m := range vimEditRe().FindAllStringSubmatch(code, 8) {
			ce.opens = append(ce.opens, m[1])
		}
		ce.writesBuffers = vimWriteRe().MatchString(code)
		return ce
	}
	if lang == "applescript" {
		// display notification "Build finished" with title "x": a banner,
		// nothing else; any other AppleScript can run shell commands,
		// script applications and read files.
		for _, line := range strings.Split(strings.TrimSpace(code), "\n") {
			if !appleScriptNoticeRe().MatchString(strings.TrimSpace(line)) {
				ce.Found = []string{foundUnanalyzable}
				break
			}
		}
		return ce
	}
	if lang == "gdb" || lang == "lldb" {
		// -ex run -ex bt: debugger commands that run, stop, step and show
		// the program; anything else (shell, python, call, source, a print
		// that calls a function) cannot be analyzed.
		switch runs, ok := debuggerCommand(code); {
		case !ok:
			ce.Found = []string{foundUnanalyzable}
		case runs:
			ce.Found = []string{foundDebuggee}
		}
		for _, line := range strings.Split(code, "\n") {
			// gdb -ex 'python exec(urlopen(…).read())', lldb -o 'script …':
			// the debugger's Python, read as Python for what it spells out
			// (never allowed: the command is not a debugger one).
			t := strings.TrimSpace(line)
			for _, pre := range []string{"python ", "py ", "python-interactive ", "pi ", "script "} {
				if rest, ok := strings.CutPrefix(t, pre); ok && strings.TrimSpace(rest) != "" {
					inner := analyzeCode("python", rest)
					for _, f := range inner.Found {
						if !slices.Contains(ce.Found, f) {
							ce.Found = append(ce.Found, f)
						}
					}
					ce.Deletes = append(ce.Deletes, inner.Deletes...)
					ce.Writes = append(ce.Writes, inner.Writes...)
					break
				}
			}
		}
		return ce
	}
	signalsOnce.Do(compileSignals)
	signals, ok := codeSignals[lang]
	if !ok {
		ce.Found = []string{foundUnanalyzable}
		if !dangerOnlyLangs[lang] {
			return ce
		}
		// lua -e, julia -e, tclsh, groovy, elixir, elisp, PowerShell: code
		// never allowed, but read for the dangers it spells out in the
		// words most languages share (a credential file sent, a start-up
		// file written, the environment dumped, code downloaded and run),
		// so that those are denied rather than left to the judge.
		signals = codeSignals[genericLang]
	}
	for _, s := range signals {
		if s.re.MatchString(code) && !slices.Contains(ce.Found, s.found) {
			ce.Found = append(ce.Found, s.found)
		}
	}
	if starImport && !slices.Contains(ce.Found, foundDynamic) {
		// from os import *; system('…'): bare names the analysis cannot
		// tie to the module that deletes, runs or sends.
		ce.Found = append(ce.Found, foundDynamic)
	}
	if lang == "python" && !slices.Contains(ce.Found, foundDynamic) && pythonDecodeRe().MatchString(code) &&
		(slices.Contains(ce.Found, foundSpawn) || slices.Contains(ce.Found, foundNetwork)) {
		// os.system(base64.b64decode('…')): text decoded at run time, in code
		// that runs programs or talks to the network, may be what it runs or
		// sends. (Decoding alone, a JWT's header printed, is data.)
		ce.Found = append(ce.Found, foundDynamic)
	}
	if remoteExec(code) || savedAndRun(code) || slices.Contains(ce.Found, foundNetwork) && slices.Contains(ce.Found, foundDynamic) && urlLiteralRe().MatchString(code) {
		// https.get('https://…', r => … eval(d)): code that fetches a URL it
		// names and runs text it builds at run time runs what it fetched.
		ce.Found = append(ce.Found, foundRemoteExec)
	}
	if reverseShell(code) {
		ce.Found = append(ce.Found, foundReverseShell)
	}
	if lang == "awk" && awkRunsFetched(code) {
		ce.Found = append(ce.Found, foundRemoteExec)
	}
	if slices.Contains(ce.Found, foundWrite) && (slices.Contains(ce.Found, foundSpawn) || slices.Contains(ce.Found, foundNetwork)) &&
		pythonStartupRe().MatchString(code) {
		// open(site-packages/'x.pth','w').write('import subprocess;…'):
		// a file Python runs at every start, made to run programs.
		ce.Found = append(ce.Found, foundStartupHook)
	}
	if slices.Contains(ce.Found, foundNetwork) && wholeEnvRe().MatchString(code) {
		// JSON.stringify(process.env), dict(os.environ), ENV.to_h, %ENV:
		// every variable, tokens too, in code that talks to the network.
		ce.Found = append(ce.Found, foundEnvDump)
	}
	if len(ce.Found) == 1 && ce.Found[0] == foundNetwork && httpReadOnly(lang, code) {
		// requests.get('https://pypi.org/pypi/x/json'): a download through
		// an HTTP client that reads no file, input, environment or machine
		// detail, and sends nothing but the URL it names.
		ce.Found = nil
	}
	if _, ok := literalDeletes(lang, code); !ok && slices.Contains(ce.Found, foundDelete) && recursiveDeleteRe().MatchString(code) {
		// for d in ('~/projects', '/srv/backups'): shutil.rmtree(d): a
		// recursive delete of a variable, in code that names folders
		// outside the temp folder; any of them may be what it deletes.
		for _, m := range absLiteralRe().FindAllStringSubmatch(code, 16) {
			p := m[1]
			if p == "/" || strings.HasPrefix(p, "/tmp") || strings.HasPrefix(p, "/dev/") || strings.HasPrefix(p, "/proc/") || strings.Contains(p, "{") {
				continue
			}
			ce.Deletes = append(ce.Deletes, p)
		}
	}
	if deletes, ok := literalDeletes(lang, code); ok {
		// Every deletion names its path: the paths are recorded as file
		// effects (and judged by their classes) instead of "deletes files".
		ce.Deletes = deletes
		found := ce.Found[:0]
		for _, f := range ce.Found {
			if f != foundDelete {
				found = append(found, f)
			}
		}
		ce.Found = found
	}
	if slices.Contains(ce.Found, foundWrite) {
		if writes, ok := literalWrites(lang, code); ok {
			// open('reports/summary.json', 'w'), fs.mkdirSync('out'): every
			// write names its path; the paths are judged by their classes.
			ce.Writes = writes
			found := ce.Found[:0]
			for _, f := range ce.Found {
				if f != foundWrite {
					found = append(found, f)
				}
			}
			ce.Found = found
		}
	}
	if len(codePaths(code)) > 0 {
		for _, p := range codePaths(code) {
			tilde := ""
			if strings.HasPrefix(p, "~/") {
				tilde = p
			}
			if has(sensitiveClasses(p, tilde), ClassSecret) || strings.HasSuffix(p, "/.ssh") || strings.HasSuffix(p, "/.aws") {
				ce.Found = append(ce.Found, foundSecretPath)
				break
			}
		}
	}
	return ce
}

// appleScriptNoticeRe matches an AppleScript line that only shows a
// notification or dialog, beeps or speaks literal text.
var appleScriptNoticeRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:display\s+(?:notification|dialog|alert)\s+"[^"\\]*"(?:\s+(?:with\s+title|subtitle|sound\s+name|buttons|default\s+button|with\s+icon|giving\s+up\s+after)\s+(?:"[^"\\]*"|\{[^}]*\}|\d+|\w+))*|say\s+"[^"\\]*"|beep(?:\s+\d+)?)$`)
})

// pythonDecodeRe finds Python code decoding text at run time.
var pythonDecodeRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bbase64\b|\bb(?:16|32|64|85)decode\b|codecs\.decode|\bbinascii\b|\bzlib\b|\bbytes\.fromhex\b|\.fromhex\(`)
})

// wholeEnvRe finds code that takes the whole environment at once.
var wholeEnvRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`JSON\.stringify\(\s*process\.env\s*[,)]|Object\.(?:entries|keys|values|assign)\(\s*(?:\{\}\s*,\s*)?process\.env\s*\)|\.\.\.process\.env\b|json\.dumps\(\s*(?:dict\()?\s*os\.environ\b|dict\(\s*os\.environ\s*\)|os\.environ\.(?:items|copy)\(\)|\{\s*\*\*os\.environ\s*\}|str\(\s*os\.environ\s*\)|ENV\.to_h\b|ENV\.to_a\b|ENV\.inspect\b|%ENV\b|\$_ENV\b|getenv\(\s*\)|Deno\.env\.toObject\(\)|Bun\.env\b\s*\)|\bin\s+ENVIRON\b|\bfor\s+\w+\s+in\s+os\.environ\b|\b(?:Get-ChildItem|gci|dir|ls)\s+env:|System\.(?:getenv|get_env)\(\s*\)|\bpairs\(\s*ENV\s*\)|\bin\s+ENV\b|\barray\s+get\s+env\b|\bprocess-environment\b`)
})

// remoteExecRe finds exec/eval (or a function built from text) applied to
// a chain of calls that starts from a URL literal:
// exec(urllib.request.urlopen('http://…').read()), eval(file_get_contents('https://…')),
// eval(URI.open("https://…").read), new Function(await (await fetch('https://…')).text()).
var remoteExecRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:exec|eval|Function|instance_eval|run_code|include|dofile|loadstring|Code\.eval_string|iex|Invoke-Expression)\s*\(\s*((?:(?:await\s*)?\(?\s*[\w.:$]+\s*\(\s*){1,5})['"\x60]https?://`)
})

// fetchCalls name the calls that read a URL.
var fetchCallRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(urlopen|\bget|fetch|\bopen|file_get_contents|download|\bload|Net::HTTP|LWP|http\.request)\s*\(`)
})

// remoteExec reports code that runs what it downloads (see remoteExecRe).
func remoteExec(code string) bool {
	for _, m := range remoteExecRe().FindAllStringSubmatch(code, 4) {
		if fetchCallRe().MatchString(m[1]) {
			return true
		}
	}
	return false
}

// vimBangRe finds a vim or ex command that hands the rest of its line to a
// shell: [silent] [range] [r|w] !cmd.
var vimBangRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)(?:^|[:|\n])\s*(?:sil(?:ent)?!?\s*)?(?:%|\.|\$|\d+(?:,\d+)?)?\s*(?:r(?:ead)?|w(?:rite)?)?\s*!([^|\n]+(?:\|[^|\n]+)*)`)
})

// singleQuotedRe finds a single-quoted literal without double quotes or
// escapes in it.
var singleQuotedRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`'([^'"\\\n]*)'`) })

// recursiveDeleteRe finds the recursive deletion calls of the languages.
var recursiveDeleteRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`shutil\.rmtree\(|FileUtils\.rm_r|FileUtils\.remove_dir|\brmtree\(|\bremove_tree\(|rmSync\([^)]*recursive|fs\.rm\([^)]*recursive|Deno\.remove\([^)]*recursive|fs::dir_delete|unlink\([^)]*recursive|glob\.glob\([^)]*recursive\s*=\s*True|\.rglob\(|Dir\.glob\(`)
})

// absLiteralRe finds quoted absolute or home paths.
var absLiteralRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`['"]((?:~|/)[^'"\s]*)['"]`)
})

// runFileRe finds code that runs a file it names: PHP's include and
// require, Python's exec(open(…)), runpy and execfile, Ruby's and Perl's
// load/require/do, Node's require, a spawned interpreter or shell.
var runFileRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:\b(?:include|include_once|require|require_once|load|do|execfile|run_path|source)\b\s*\(?|\bexec\s*\(\s*open\s*\(|\[\s*['"](?:/bin/)?(?:ba|z|da)?sh['"]\s*,|\b(?:system|spawn|execSync|exec|Popen|call|run)\s*\(\s*\[?\s*['"](?:(?:/bin/)?(?:ba|z|da)?sh|python3?|node|perl|ruby|php)\s)\s*['"]([^'"\s]+)['"]`)
})

// urlLiteralRe finds a quoted http(s) URL.
var urlLiteralRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`['"\x60]https?://[^'"\x60\s]+['"\x60]`)
})

// savedAndRun reports code that downloads from a URL it names, writes a
// file and runs that same file: file_put_contents('/tmp/x.php',
// file_get_contents('https://…')); include '/tmp/x.php'.
func savedAndRun(code string) bool {
	if !urlLiteralRe().MatchString(code) || !fetchCallRe().MatchString(code) {
		return false
	}
	for _, m := range runFileRe().FindAllStringSubmatchIndex(code, 8) {
		p := code[m[2]:m[3]]
		if len(p) < 3 || strings.HasPrefix(p, "http") {
			continue
		}
		// The path is named before it is run: where the download went.
		if strings.Contains(code[:m[0]], "'"+p+"'") || strings.Contains(code[:m[0]], "\""+p+"\"") {
			return true
		}
	}
	return false
}

// awkFetchRe finds an awk command pipe that reads a download into a
// variable ("curl -s URL" | getline c).
var awkFetchRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`"\s*(?:curl|wget|fetch|nc)\b[^"]*"\s*\|\s*getline\s+([A-Za-z_]\w*)`)
})

// awkRunsFetched reports awk code that reads a download into a variable
// and hands that variable to system(): it runs what it fetched.
func awkRunsFetched(code string) bool {
	for _, m := range awkFetchRe().FindAllStringSubmatch(code, 4) {
		if regexp.MustCompile(`\bsystem\s*\(\s*` + m[1] + `\s*\)`).MatchString(code) {
			return true
		}
	}
	return false
}

// reverseShellRes are what a reverse shell holds: a socket opened to a
// host, the process's standard streams tied to it, and a shell started.
var reverseShellRes = sync.OnceValue(func() [3]*regexp.Regexp {
	return [3]*regexp.Regexp{
		regexp.MustCompile(`\bsocket\b|IO::Socket|\bfsockopen\(|\bnet\.(?:connect|createConnection|Socket)\b|\bTCPSocket\b|Socket\.new|\bstream_socket_client\(|Deno\.connect\(|\bsocat\b`),
		regexp.MustCompile(`\bdup2\b|\bopen\s*\(\s*STD(?:IN|OUT|ERR)\b|\.pipe\(|\bproc_open\(|\bfdopen\b|<&|>&|\bdescriptorspec\b|\bstdio\s*:|\b(?:in|out|err)\s*:\s*\w+|:in\s*=>|\$stdin\.reopen|\bSTDIN\.reopen`),
		// …and starts a shell, or runs each line it reads (system$_ while<>).
		regexp.MustCompile(`['"](?:/bin/|/usr/bin/)?(?:ba|z|da|k)?sh(?:\s+-i)?['"]|\bpty\.spawn\(|cmd\.exe|['"]-i['"]|\bsystem\s*\(?\s*\$_\b|\bexec\s*\(?\s*\$_\b|\bsystem\s*\(?\s*\$\w+\s*\)?\s*while\s*\(?\s*(?:\$\w+\s*=\s*)?<`),
	}
})

// reverseShell reports code that opens a socket, ties the standard streams
// to it and starts a shell: a remote person typing on this machine.
func reverseShell(code string) bool {
	res := reverseShellRes()
	return res[0].MatchString(code) && res[1].MatchString(code) && res[2].MatchString(code)
}

// httpReadSources are, per language, an HTTP client's read calls, and what
// would make them more than a read of the URL the code names: a method that
// sends a body, and anything that reaches local data (files, stdin, the
// arguments, the environment, the machine's names) or credentials a client
// loads by itself (cloud SDKs, ssh, mail, raw sockets).
var httpReadSources = map[string][2]string{
	"python": {`\b(requests|httpx)\.(get|head)\(|urllib\.request\.urlopen\(\s*['"]|urlopen\(\s*['"]`,
		`\b(open|input|Request)\s*\(|\.(post|put|patch|delete|request|send|read_text|read_bytes)\(|\b(data|json|files|auth|cookies|headers)\s*=|sys\.(stdin|argv)|fileinput|\bos\.|\bPath\b|pathlib|glob|getpass|socket|platform|subprocess|boto3|botocore|paramiko|smtplib|ftplib|telnetlib|websocket|keyring|netrc|sqlite3|shutil|pickle|pandas|\bpd\.`},
	"node": {`\bfetch\(\s*['"\x60]https?://[^'"\x60]*['"\x60]\s*\)`,
		`\bfetch\(\s*['"\x60][^'"\x60]*['"\x60]\s*,|\b(method|body|headers)\s*:|\bfs\b|readFile|readdir|createReadStream|process\.(stdin|argv|env)|require\(\s*['"](os|fs|child_process|net|tls|dgram)['"]|\bos\.|Deno\.|Bun\.|XMLHttpRequest|WebSocket`},
}

var httpReadRes = sync.OnceValue(func() map[string][2]*regexp.Regexp {
	out := map[string][2]*regexp.Regexp{}
	for lang, src := range httpReadSources {
		out[lang] = [2]*regexp.Regexp{regexp.MustCompile(src[0]), regexp.MustCompile(src[1])}
	}
	return out
})

// httpReadOnly reports code of lang whose network use is an HTTP read of a
// URL it names and that touches no local data (see httpReadSources).
func httpReadOnly(lang, code string) bool {
	res, ok := httpReadRes()[lang]
	return ok && res[0].MatchString(code) && !res[1].MatchString(code)
}

// InlineCodeFindings is what the per-language analysis finds in code of
// lang (python, node, ruby, perl, php, …): deletes files, writes, spawns,
// uses the network, reads the environment, names a credential path, or
// cannot be analyzed.
func InlineCodeFindings(lang, code string) []string { return analyzeCode(lang, code).Found }

// Findings of the per-language analysis.
const (
	FoundNetwork    = foundNetwork
	FoundSecretPath = foundSecretPath
	FoundEnv        = foundEnv
)

// vimEditsOnly reports editor commands that only edit and save the buffer:
// substitutions (without \= expressions), line deletes by pattern,
// retab and option settings, and write or quit. Anything that can run a
// program (!, :r !, :w !cmd, system(), :call, :source, :py, …) is not.
func vimEditsOnly(code string) bool {
	vimOnce.Do(func() {
		vimSafe = regexp.MustCompile(`^(\d+|%|\.|\$|'[a-z<>]|\d+,\d+|\d+,\$|1,\$)?\s*(s(ubstitute)?(/(?:[^/\\]|\\.)*/(?:[^/\\]|\\.)*/|#[^#]*#[^#]*#|\|[^|]*\|[^|]*\|)[gceInr&]*|g(lobal)?/[^/]*/d(elete)?|v/[^/]*/d(elete)?|d(elete)?|retab!?|set?\s+[a-z]+(=[\w.-]+)?|setl(ocal)?\s+[a-z]+(=[\w.-]+)?|w(rite)?|wq!?|x!?|xa(ll)?!?|wqa(ll)?!?|q(uit)?!?|qa(ll)?!?|up(date)?|noh(lsearch)?|norm(al)?!?\s+gg=G)$`)
	})
	for _, cmd := range strings.Split(code, "\n") {
		for _, part := range strings.Split(cmd, "|") {
			part = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(part), ":"))
			if part == "" {
				continue
			}
			if strings.Contains(part, "\\=") || !vimSafe.MatchString(part) {
				return false
			}
		}
	}
	return true
}

var (
	// vimEditRe finds the files vim commands open (:e FILE, :tabedit FILE).
	vimEditRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)(?:^|\|)\s*:?(?:e|edit|tabe|tabedit|sp|split|vs|vsplit|badd|new|vnew)!?\s+([^\s|]+)`)
	})
	// vimWriteRe finds a vim command that writes a buffer.
	vimWriteRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)(?:^|\|)\s*:?(?:w|write|wq|wqa|wqall|x|xa|xall|up|update|sav|saveas|wa|wall)!?\s*(?:$|\|)`)
	})
	vimOnce sync.Once
	vimSafe *regexp.Regexp
)

func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 120 {
		return s[:117] + "..."
	}
	return s
}

// quotedPath finds quoted strings in code that look like file paths.
var quotedPathSource = `['"]((?:~|\.{1,2})?/[^'"\s]*|[^'"\s/]*\.(?:env|pem|key)|\.[\w-]+/[^'"\s]+|[\w-]+(?:/[\w.-]+)+)['"]`

// SpawnedCommands returns the command lines code of lang (any language,
// known or not) may hand to a shell: see spawnedCommands.
func SpawnedCommands(lang, code string) []string { return spawnedCommands(lang, code) }

// makeVarRe matches a make variable reference $(NAME) or ${NAME}.
var makeVarRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]`)
})

// spawnedCommands returns the command lines inline code may hand to a
// shell: its string literals that hold a space (awk system("…"), rake sh
// "…", os.system('…')), and for sed the replacement of an s///e command.
func spawnedCommands(lang, code string) []string {
	var out []string
	if lang == "powershell" {
		return powerShellAsShell(code)
	}
	if lang == "make" {
		// make --eval='wipe: ; rm -rf $$HOME/*' wipe: a rule's recipe (after
		// ";" on its line, or on the tab-indented lines below) is shell,
		// with make's $$ for the shell's $.
		for _, line := range strings.Split(code, "\n") {
			recipe := ""
			switch {
			case strings.HasPrefix(line, "\t"):
				recipe = line[1:]
			default:
				if i := strings.Index(line, ":"); i > 0 && !strings.HasPrefix(line[i:], ":=") {
					if j := strings.Index(line[i:], ";"); j >= 0 {
						recipe = line[i+j+1:]
					}
				}
			}
			recipe = strings.TrimLeft(strings.TrimSpace(recipe), "@-+")
			if recipe != "" {
				// $(HOME) is make's variable (the environment's HOME), $$ the
				// shell's $.
				recipe = strings.ReplaceAll(recipe, "$$", "\x00")
				recipe = makeVarRe().ReplaceAllString(recipe, "$${$1}")
				out = append(out, strings.ReplaceAll(recipe, "\x00", "$"))
			}
		}
		return out
	}
	if lang == "sed" {
		for _, m := range sedExecRe().FindAllStringSubmatch(code, 8) {
			out = append(out, strings.ReplaceAll(m[1], `\/`, "/"))
		}
		for _, m := range sedExecCmdRe().FindAllStringSubmatch(code, 8) {
			out = append(out, strings.TrimSpace(m[1])) // 1e curl … | sh: the e command runs the rest of its line
		}
		return out
	}
	if lang == "sql" {
		// sqlite3's .shell/.system and psql's \! hand the rest of the line
		// to a shell.
		for _, line := range strings.Split(code, "\n") {
			line = strings.TrimSpace(line)
			for _, prefix := range []string{".shell ", ".system ", `\! `, `\!`} {
				if rest, ok := strings.CutPrefix(line, prefix); ok && strings.TrimSpace(rest) != "" {
					out = append(out, strings.TrimSpace(rest))
					break
				}
			}
		}
		return out
	}
	if lang == "vim" {
		// :silent !curl … | sh, r !cmd, w !cmd, %!cmd: the rest of the
		// command after ! runs in a shell.
		// (Its string literals are read below too: system("…"),
		// lua os.execute("…").)
		for _, m := range vimBangRe().FindAllStringSubmatch(code, 8) {
			if cmd := strings.TrimSpace(m[1]); cmd != "" {
				out = append(out, cmd)
			}
		}
	}
	if lang == "expect" {
		// spawn ssh root@db; send "rm -rf /srv/data\r": what it types into a
		// shell it spawns (a local shell, ssh, su) runs there.
		if spawnRe().MatchString(code) {
			for _, m := range expectSendRe().FindAllStringSubmatch(code, 16) {
				cmd := strings.TrimSpace(strings.NewReplacer(`\r`, "", `\n`, "", `\"`, `"`).Replace(m[1]))
				if cmd != "" {
					out = append(out, cmd)
				}
			}
		}
		return out
	}
	if lang == "vim" || lang == "gdb" || lang == "lldb" {
		// :!cmd, gdb's !cmd and shell cmd: the rest of the command is shell.
		for _, line := range strings.Split(code, "\n") {
			line = strings.TrimLeft(strings.TrimSpace(line), ":")
			switch {
			case strings.HasPrefix(line, "!"):
				out = append(out, strings.TrimSpace(line[1:]))
			case strings.HasPrefix(line, "shell "):
				out = append(out, strings.TrimSpace(line[len("shell "):]))
			case strings.HasPrefix(line, "platform shell "):
				out = append(out, strings.TrimSpace(line[len("platform shell "):])) // lldb
			}
		}
	}
	if lang == "perl" || lang == "ruby" || lang == "php" {
		// `cat .env`, qx{…}: backticks run a shell command.
		for _, m := range backtickRe().FindAllStringSubmatch(code, 8) {
			out = append(out, strings.TrimSpace(m[1]))
		}
	}
	// "rm -rf " .. os.getenv("HOME") .. "/x": the home directory's spellings
	// read as $HOME, and literals joined by a concatenation read as one.
	code = homeExprRe().ReplaceAllString(code, `"$$HOME"`)
	// 'rm -rf ' + "$HOME": one kind of quote, so that concatenations join.
	code = singleQuotedRe().ReplaceAllString(code, `"$1"`)
	for i := 0; i < 8; i++ {
		joined := concatRe().ReplaceAllString(code, `"$1$3"`)
		if joined == code {
			break
		}
		code = joined
	}
	for _, m := range stringLiteralRe().FindAllStringSubmatch(code, 32) {
		lit := m[1] + m[2]
		if strings.Contains(lit, " ") || bareShellRe().MatchString(lit) {
			out = append(out, strings.ReplaceAll(lit, `\"`, `"`))
		}
	}
	return out
}

var (
	homeJoinRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:homedir\(\)|Path\.home\(\)\.joinpath\(|Path\.home\(\)|ENVIRON\[\s*['"]HOME['"]\s*\]|Deno\.env\.get\(\s*['"]HOME['"]\s*\)|expanduser\(\s*['"]~['"]\s*\)|getenv\(\s*['"]HOME['"]\s*\)|environ\[\s*['"]HOME['"]\s*\]|ENV\[\s*['"]HOME['"]\s*\]|process\.env\.HOME|Dir\.home)\s*[+/,]?\s*['"]([^'"]+)['"]((?:\s*[+/,]?\s*['"][^'"]+['"])*)`)
	})
	homeJoinPartRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`['"]([^'"]+)['"]`) })
	sedExecRe      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`s/(?:[^/\\]|\\.)*/((?:[^/\\]|\\.)*)/[gpIiMm0-9]*e`) })
	sedExecCmdRe   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)(?:^|;)\s*(?:[0-9]+|\$|/[^/]*/)?\s*e\s+([^;\n]+)`)
	})
	homeExprRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`ENVIRON\[\s*["']HOME["']\s*\]|os\.getenv\(\s*["']HOME["']\s*\)|Sys\.getenv\(\s*["']HOME["']\s*\)|getenv\(\s*["']HOME["']\s*\)|os\.homedir\(\)|require\(\s*["'](?:node:)?os["']\s*\)\.homedir\(\)|Path\.home\(\)|Dir\.home\b|process\.env\.HOME|os\.environ\[\s*["']HOME["']\s*\]|ENV\[\s*["']HOME["']\s*\]|\$ENV\{\s*["']?HOME["']?\s*\}|os\.path\.expanduser\(\s*["']~["']\s*\)|Deno\.env\.get\(\s*["']HOME["']\s*\)|Bun\.env\.HOME\b`)
	})
	concatRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`"((?:[^"\\]|\\.)*)"\s*(\.\.|\+|\s\.\s|\s)\s*"((?:[^"\\]|\\.)*)"`)
	})
	// Inline code that connects out and gives the connection a shell: the
	// reverse shells of every scripting language look alike.
	reverseShellRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?s)(socket\.socket|\bsocket\s*\(|fsockopen|TCPSocket|net\.connect|net\.Socket|new\s+Socket|createConnection|/dev/tcp/)` +
			`.{0,600}?(dup2|open\s*\(\s*STDIN|\.fileno\(\)|pty\.spawn|exec\s*\(\s*["'](/bin/)?(ba|z|da)?sh|spawn\s*\(\s*["'](/bin/)?(ba|z|da)?sh|proc_open|/bin/(ba|z|da)?sh\s+-i|\bcmd\.exe|\.pipe\(\s*\w+\.stdin)`)
	})
	spawnRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bspawn\s+(\S*/)?(ssh|sh|bash|zsh|su|sudo|telnet|docker|kubectl)\b`)
	})
	expectSendRe    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bsend\s+(?:--\s+)?"((?:[^"\\]|\\.)*)"`) })
	backtickRe      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`([^`\n]+)`") })
	stringLiteralRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"((?:[^"\\]|\\.)*)"|'([^']*)'`) })
)

// encodedCode returns the text of long base64 string literals in code that
// decode to text (code hidden from a reader), at most four.
func encodedCode(code string) []string {
	low := strings.ToLower(code)
	b64 := strings.Contains(low, "base64") || strings.Contains(code, "b64") || strings.Contains(code, "atob")
	hexed := strings.Contains(code, "H*") || strings.Contains(low, "fromhex") || strings.Contains(low, "unhexlify") ||
		strings.Contains(code, "'hex'") || strings.Contains(code, `"hex"`) || strings.Contains(low, "hex2bin")
	rot := strings.Contains(low, "rot13") || strings.Contains(low, "rot_13")
	rev := strings.Contains(code, ".reverse()") || strings.Contains(code, "[::-1]") || strings.Contains(code, "reverse ") ||
		strings.Contains(code, ".reverse") || strings.Contains(code, "strrev(")
	if len(code) > 16<<10 || !b64 && !hexed && !rot && !rev {
		return nil
	}
	var out []string
	if rev {
		// 'hs | …'.split('').reverse().join(''), '…'[::-1], reverse("…"),
		// strrev('…'): the literal read backwards.
		for _, m := range stringLiteralRe().FindAllStringSubmatch(code, 32) {
			if lit := m[1] + m[2]; len(lit) >= 12 {
				r := []rune(lit)
				for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
					r[i], r[j] = r[j], r[i]
				}
				out = append(out, string(r))
			}
		}
		if !b64 && !hexed && !rot {
			return out
		}
	}
	if rot {
		// codecs.decode("vzcbeg bf…", "rot13"), str_rot13('…'): the literal
		// read back (a literal of letters, spaces and punctuation).
		for _, m := range stringLiteralRe().FindAllStringSubmatch(code, 32) {
			if lit := m[1] + m[2]; len(lit) >= 12 && !strings.Contains(strings.ToLower(lit), "rot") {
				out = append(out, rot13(lit))
			}
		}
		if !b64 && !hexed {
			return out
		}
	}
	for _, m := range stringLiteralRe().FindAllStringSubmatch(code, 32) {
		lit := m[1] + m[2]
		if len(lit) < 16 || strings.ContainsAny(lit, " \t\n.") {
			continue
		}
		var b []byte
		var err error
		if hexed && len(lit)%2 == 0 && strings.Trim(strings.ToLower(lit), "0123456789abcdef") == "" {
			// perl pack("H*", "…"), bytes.fromhex("…"), Buffer.from("…", "hex").
			b, err = hex.DecodeString(lit)
		} else if b64 {
			s := strings.TrimRight(lit, "=")
			enc := base64.RawStdEncoding
			if strings.ContainsAny(s, "-_") {
				enc = base64.RawURLEncoding
			}
			b, err = enc.DecodeString(s)
		} else {
			continue
		}
		if err != nil {
			continue
		}
		if len(b) > 2 && b[0] == 0x78 && (int(b[0])<<8|int(b[1]))%31 == 0 {
			// zlib.decompress(b64decode(…)): a compressed stream.
			if z, zerr := zlib.NewReader(bytes.NewReader(b)); zerr == nil {
				inflated, rerr := io.ReadAll(io.LimitReader(z, 64<<10))
				if rerr == nil || len(inflated) > 0 {
					b = inflated
				}
			}
		}
		if !utf8.Valid(b) || strings.ContainsRune(string(b), 0) {
			continue
		}
		if out = append(out, string(b)); len(out) == 4 {
			break
		}
	}
	return out
}

// rot13 rotates the letters of s by 13.
func rot13(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = 'a' + (c-'a'+13)%26
		case c >= 'A' && c <= 'Z':
			b[i] = 'A' + (c-'A'+13)%26
		}
	}
	return string(b)
}

// execsDecoded reports inline code that runs (exec, eval, a shell call)
// what it decodes from a long literal: base64, hex, compressed or rot13.
func execsDecoded(code string) bool {
	return len(code) < 16<<10 && execDecodedRe().MatchString(code)
}

var execDecodedRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)\b(exec|eval|system|execSync|spawnSync|popen|Function)\s*\(.{0,80}?(b64decode|b32decode|decompress|fromhex|unhexlify|atob|Buffer\.from|pack\s*\(|decode_base64|base64_decode|gzinflate|gzuncompress|str_rot13|codecs\.decode|Base64\.decode64|unpack1?\s*\().{0,40}?['"][A-Za-z0-9+/=_-]{40,}['"]`)
})

// CodePathWords returns the paths code names: in quotes, or as words of
// a command it holds (system("cat ~/.aws/credentials | nc …")), with the
// home directory's spellings ($HOME/, ${HOME}/, $ENV{HOME}/, os.homedir()
// + '/…') read as ~/.
func CodePathWords(code string) []string {
	code = homeLiterals(code)
	out := codePaths(code)
	for _, w := range strings.FieldsFunc(code, func(r rune) bool { return strings.ContainsRune(" \t\n'\"(),;|<>{}[]`=+", r) }) {
		if w == "$ENV" || w == "HOME" {
			continue
		}
		w = strings.Replace(w, "$HOME/", "~/", 1)
		if (strings.HasPrefix(w, "~/") || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "./") || strings.HasPrefix(w, "../")) &&
			len(w) > 2 && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	for _, m := range homeJoinRe().FindAllStringSubmatch(code, 16) {
		// os.homedir() + '/.npmrc', Path.home() / '.aws' / 'credentials',
		// path.join(os.homedir(), '.ssh', 'id_rsa'): a path in the home.
		rest := strings.TrimPrefix(m[1], "/")
		for _, part := range homeJoinPartRe().FindAllStringSubmatch(m[2], 8) {
			if strings.ContainsAny(part[1], " \t\\") {
				break // writeFile(home + '/.zprofile', 'export …\n'): the content, not a path part
			}
			rest += "/" + strings.Trim(part[1], "/")
		}
		if p := "~/" + rest; !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, home := range []string{"${HOME}/", "$ENV{HOME}/", "$ENV{'HOME'}/", "$ENV{\"HOME\"}/"} {
		for rest := code; ; {
			i := strings.Index(rest, home)
			if i < 0 {
				break
			}
			rest = rest[i+len(home):]
			end := strings.IndexAny(rest, " \t\n'\"(),;|<>{}[]`")
			if end < 0 {
				end = len(rest)
			}
			if p := "~/" + rest[:end]; end > 0 && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// codePaths returns the file paths named in quotes in code.
func codePaths(code string) []string {
	var out []string
	signalsOnce.Do(compileSignals)
	for _, m := range quotedPath.FindAllStringSubmatch(code, 20) {
		out = append(out, m[1])
	}
	return out
}

// ClassifyHost reports whether a URL or host is this machine or a private
// network, and whether it is a cloud metadata endpoint in any spelling
// (dotted, decimal, octal, hex, IPv6-mapped, metadata host names, and
// wildcard-DNS names such as 169.254.169.254.nip.io).
func ClassifyHost(dest string) (local, metadata bool) { return classifyHost(dest) }

// LoopbackHost reports a destination on this machine itself (localhost,
// 127.0.0.0/8, ::1, 0.0.0.0, or HTTPie's :PORT shorthand), not merely on a
// private network.
func LoopbackHost(dest string) bool {
	if strings.HasPrefix(dest, ":") {
		return true
	}
	host := destHost(dest)
	if host == "localhost" || host == "localhost.localdomain" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := parseLooseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsUnspecified())
}

// destHost returns the host of a URL or host[:port][/path], lower-cased,
// without brackets or a trailing dot.
func destHost(dest string) string {
	host := dest
	if u, err := url.Parse(dest); err == nil && u.Host != "" {
		host = u.Hostname()
	} else {
		host, _, _ = strings.Cut(strings.TrimPrefix(strings.TrimPrefix(dest, "http://"), "https://"), "/")
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
	}
	return strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
}

// MetadataHostIn returns a cloud metadata host named anywhere in v (a URL,
// a URL inside one of its parameters, percent-encoded or not), or "".
func MetadataHostIn(v string) string {
	for _, h := range hostCandidates(v) {
		if _, meta := classifyHost(h); meta {
			return hostOf(h)
		}
	}
	return ""
}

// EncodedHostLabel returns a label of a host name that carries encoded
// data (32 or more hex characters, or 40 or more of base32/base64url with a
// mix of letters and digits): a lookup of it sends the data to whoever
// serves the domain. "" when there is none.
func EncodedHostLabel(host string) string {
	for _, label := range strings.Split(strings.ToLower(host), ".") {
		if len(label) < 32 {
			continue
		}
		hex, alnum, digits := true, true, 0
		for _, c := range []byte(label) {
			switch {
			case c >= '0' && c <= '9':
				digits++
			case c >= 'a' && c <= 'f':
			case c >= 'g' && c <= 'z', c == '-' || c == '_':
				hex = false
			default:
				hex, alnum = false, false
			}
		}
		if hex && digits > 0 || alnum && len(label) >= 40 && digits >= 4 && digits < len(label)-4 {
			return label
		}
	}
	return ""
}

func classifyHost(dest string) (local, metadata bool) {
	host := destHost(dest)
	switch host {
	case "metadata.google.internal", "metadata", "instance-data", "instance-data.ec2.internal", "metadata.azure.internal":
		return false, true
	case "localhost", "localhost.localdomain", "host.docker.internal":
		return true, false
	}
	if strings.HasSuffix(host, ".localhost") || strings.HasSuffix(host, ".local") {
		return true, false
	}
	for _, private := range []string{".internal", ".corp", ".lan", ".intranet", ".svc", ".home.arpa"} {
		// consul.service.internal, api.default.svc: names of a private
		// network, like its addresses.
		if strings.HasSuffix(host, private) {
			return true, false
		}
	}
	for _, wildcard := range []string{".nip.io", ".sslip.io", ".xip.io", ".traefik.me"} {
		// 169.254.169.254.nip.io, app-169-254-169-254.sslip.io and
		// a9fea9fe.nip.io resolve to the address they name.
		if name, ok := strings.CutSuffix(host, wildcard); ok {
			return classifyHost(wildcardAddress(name))
		}
	}
	ip := parseLooseIP(host)
	if ip == nil {
		return false, false
	}
	if v4 := ip.To4(); v4 != nil {
		// 169.254.0.0/16 (AWS, GCP, Azure IMDS, link-local), Alibaba's
		// 100.100.100.200, Azure's WireServer 168.63.129.16 (the
		// extensions' settings and secrets), Oracle's 192.0.0.192.
		if v4[0] == 169 && v4[1] == 254 || v4[0] == 100 && v4[1] == 100 && v4[2] == 100 && v4[3] == 200 ||
			v4[0] == 168 && v4[1] == 63 && v4[2] == 129 && v4[3] == 16 || v4[0] == 192 && v4[1] == 0 && v4[2] == 0 && v4[3] == 192 {
			return false, true
		}
	}
	if ip.Equal(net.ParseIP("fd00:ec2::254")) {
		return false, true
	}
	return ip.IsLoopback() || ip.IsPrivate() || ip.IsUnspecified(), false
}

// wildcardAddress is the address a wildcard-DNS name stands for: its last
// four numeric labels (dots or dashes), or eight hex digits.
func wildcardAddress(name string) string {
	labels := strings.FieldsFunc(name, func(r rune) bool { return r == '.' || r == '-' })
	if n := len(labels); n >= 4 {
		if ip := parseLooseIP(strings.Join(labels[n-4:], ".")); ip != nil {
			return ip.String()
		}
	}
	if n := len(labels); n >= 1 && len(labels[n-1]) == 8 {
		if ip := parseLooseIP("0x" + labels[n-1]); ip != nil {
			return ip.String()
		}
	}
	return name
}

// parseLooseIP parses an IP address in the spellings URL parsers accept:
// dotted quads with octal or hex parts, a single 32-bit number, IPv6 and
// IPv4-mapped IPv6.
func parseLooseIP(h string) net.IP {
	if ip := net.ParseIP(h); ip != nil {
		return ip
	}
	parts := strings.Split(h, ".")
	if len(parts) == 0 || len(parts) > 4 {
		return nil
	}
	vals := make([]uint64, len(parts))
	for i, p := range parts {
		v, err := strconv.ParseUint(p, 0, 32)
		if err != nil {
			if strings.HasPrefix(p, "0") && len(p) > 1 {
				if v, err = strconv.ParseUint(p[1:], 8, 32); err != nil {
					return nil
				}
			} else {
				return nil
			}
		}
		vals[i] = v
	}
	var n uint64
	switch len(vals) {
	case 1:
		n = vals[0]
	case 2:
		n = vals[0]<<24 | vals[1]
	case 3:
		n = vals[0]<<24 | vals[1]<<16 | vals[2]
	case 4:
		n = vals[0]<<24 | vals[1]<<16 | vals[2]<<8 | vals[3]
	}
	if n > 0xffffffff {
		return nil
	}
	return net.IPv4(byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
}

// hostCandidates returns the hosts of URLs in text, and text itself when it
// is a bare host or address.
func hostCandidates(text string) []string {
	if text == "" || len(text) > 64<<10 {
		return nil
	}
	var out []string
	// A URL inside another, percent-encoded (a redirect or proxy parameter:
	// ?url=http%3A%2F%2F169.254.169.254%2F), once or more times over.
	for decoded, i := text, 0; i < 3 && strings.Contains(decoded, "%"); i++ {
		next, err := url.PathUnescape(decoded)
		if err != nil || next == decoded {
			break
		}
		decoded = next
		out = append(out, hostCandidates(strings.ReplaceAll(decoded, "%", ""))...)
	}
	rest := text
	for {
		i := strings.Index(rest, "://")
		if i < 0 {
			break
		}
		rest = rest[i+3:]
		end := strings.IndexAny(rest, "/ \t\n'\"?#)")
		if end < 0 {
			end = len(rest)
		}
		out = append(out, "http://"+rest[:end])
		rest = rest[end:]
	}
	if len(out) == 0 && !strings.ContainsAny(text, " /\t\n") && strings.ContainsAny(text, ".:") {
		out = append(out, text) // a bare host or address (dig, ping, nc)
	}
	if strings.Contains(text, "169.254.") || strings.Contains(text, "metadata.google") {
		for _, f := range strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(" \t\n'\"/()[],;=", r) }) {
			out = append(out, f)
		}
	}
	return out
}

// deleteCalls are the deletion calls of a language whose first argument is the
// path, and whether they delete recursively.
// homeLiterals rewrites the home directory's spellings joined to a quoted
// path ($ENV{HOME}."/.ssh", os.getenv("HOME") .. "/.aws", process.env.HOME +
// '/.npmrc') as the quoted path under ~, so the path reads as one literal.
func homeLiterals(code string) string {
	if !strings.Contains(code, "HOME") && !strings.Contains(code, "homedir") && !strings.Contains(code, "expanduser") &&
		!strings.Contains(code, ".home") {
		return code
	}
	code = homeJoinCallRe().ReplaceAllStringFunc(code, func(m string) string { // File.join(Dir.home, "src")
		return joinedHomePath(homeJoinCallRe().FindStringSubmatch(m))
	})
	code = homePathOpRe().ReplaceAllString(code, "$1~/") // Path.home() / "src", Path.home().joinpath("src")
	code = homeConcatRe().ReplaceAllString(code, "$1~/")
	// Deno.remove(Deno.env.get('HOME'), …), rmtree(os.environ['HOME']): the
	// home directory itself as an argument (after the joins above).
	return homeArgRe().ReplaceAllString(code, `$1"~"$2`)
}

// homeArgRe finds the home directory given whole as a call's argument.
var homeArgRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([(,]\s*)(?:` + homeExprRe().String() + `)(\s*[,)])`)
})

// homePathOpRe finds pathlib's joins of the home directory and a literal
// (Path.home() / 'projects', Path.home().joinpath('.aws/credentials')).
var homePathOpRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:pathlib\.)?Path\.home\(\)\s*(?:/|\.joinpath\()\s*(["'])`)
})

// homeJoinCallRe finds a path join of the home directory and one literal
// (File.join(Dir.home, "src"), os.path.join(os.path.expanduser("~"), "x")).
var homeJoinCallRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:File\.join|os\.path\.join|path\.join|Path\.join|filepath\.Join|require\(\s*["'](?:node:)?path["']\s*\)\.join)\(\s*(?:` + homeExprRe().String() + `)\s*,\s*["']([^"'/]+(?:/[^"']*)?)["']((?:\s*,\s*["'][^"']+["']){0,4})\s*\)`)
})

// quotedPartRe finds one quoted component of a path join.
var quotedPartRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`["']([^"']+)["']`) })

// joinedHomePath writes a join of the home directory and literals
// (path.join(os.homedir(), '.claude', 'settings.json')) as one quoted path.
func joinedHomePath(m []string) string {
	p := "~/" + m[1]
	for _, c := range quotedPartRe().FindAllStringSubmatch(m[2], -1) {
		p += "/" + strings.Trim(c[1], "/")
	}
	return `"` + p + `"`
}

var homeConcatRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:` + homeExprRe().String() + `)\s*(?:\.\.|\.|\+)\s*(["'])/`)
})

var deleteCallSources = map[string]string{
	"python": `(?:shutil\.rmtree|os\.remove|os\.unlink|os\.rmdir|os\.removedirs)\(\s*(?:(?:os\.path\.expanduser|Path)\(\s*)?(?:r?['"]([^'"]+)['"])?`,
	"node":   `(?:fs\.)?(?:rmSync|rmdirSync|unlinkSync|rm|rmdir|unlink|Deno\.remove|Deno\.removeSync)\(\s*(?:['"]([^'"]+)['"])?`,
	"r":      `\b(?:unlink|file\.remove|fs::dir_delete|fs::file_delete)\s*\(\s*(?:path\.expand\(\s*)?(?:['"]([^'"]+)['"])?`,
	"perl":   `\b(?:unlink|rmdir|rmtree|remove_tree)\b\s*\(?\s*(?:['"]([^'"]+)['"])?`,
	"ruby":   `(?:FileUtils\.(?:rm_rf|rm_r|rm_f|rm|remove_dir|remove_entry(?:_secure)?|remove)|File\.(?:delete|unlink)|Dir\.(?:delete|rmdir|unlink))\b\s*\(?\s*(?:Dir\.glob\(\s*|Dir\[\s*|File\.expand_path\(\s*)?(?:['"]([^'"]+)['"])?`,
}

// compileEach compiles a language's expressions on first use.
func compileEach(src map[string]string) func() map[string]*regexp.Regexp {
	return sync.OnceValue(func() map[string]*regexp.Regexp {
		out := make(map[string]*regexp.Regexp, len(src))
		for l, s := range src {
			out[l] = regexp.MustCompile(s)
		}
		return out
	})
}

var deleteCalls = compileEach(deleteCallSources)

// literalDeletes returns the paths of the deletion calls in code when every
// such call names a literal path (ok false when one does not).
func literalDeletes(lang, code string) (paths []string, ok bool) {
	if l, alias := langAliases[lang]; alias {
		lang = l
	}
	re := deleteCalls()[lang]
	if re == nil {
		return nil, false
	}
	for _, m := range re.FindAllStringSubmatch(code, 20) {
		if m[1] == "" {
			return nil, false
		}
		paths = append(paths, m[1])
	}
	return paths, len(paths) > 0
}

// writeCallSources are a language's write calls that name their path as a
// literal (the path is one of the groups).
var writeCallSources = map[string]string{
	"python": `\bopen\(\s*r?['"]([^'"\n]+)['"]\s*,\s*(?:mode\s*=\s*)?['"][wax]b?\+?t?['"]|\b(?:pathlib\.)?Path\(\s*r?['"]([^'"\n]+)['"]\s*\)\.(?:write_text|write_bytes|touch|mkdir|chmod)\(|\bos\.(?:makedirs|mkdir|chmod)\(\s*r?['"]([^'"\n]+)['"]`,
	"node":   `\b(?:fs\.)?(?:writeFileSync|writeFile|appendFileSync|appendFile|mkdirSync|mkdir|chmodSync|chmod)\(\s*['"\x60]([^'"\x60$\n]+)['"\x60]`,
}

var writeCalls = compileEach(writeCallSources)

// literalWrites returns the paths of code's writes when every write it
// makes is a call that names a literal path: with those calls taken out,
// the language's write signal no longer matches (ok false otherwise).
func literalWrites(lang, code string) (paths []string, ok bool) {
	re := writeCalls()[lang]
	if re == nil {
		return nil, false
	}
	for _, m := range re.FindAllStringSubmatch(code, 20) {
		for _, g := range m[1:] {
			if g != "" {
				paths = append(paths, g)
				break
			}
		}
	}
	if len(paths) == 0 {
		return nil, false
	}
	rest := re.ReplaceAllString(code, " ")
	for _, s := range codeSignals[lang] {
		if s.found == foundWrite && s.re.MatchString(rest) {
			return nil, false
		}
	}
	return paths, true
}

// debuggerCommand reads one gdb or lldb command: whether it is one that only
// runs, stops, steps through or shows the debugged program (ok), and whether
// it starts the program (runs).
func debuggerCommand(code string) (runs, ok bool) {
	code = strings.TrimSpace(code)
	if code == "" || strings.ContainsAny(code, "\n;|!`$") && !strings.HasPrefix(code, "p $") && !strings.HasPrefix(code, "print $") {
		return false, false
	}
	words := strings.Fields(strings.ToLower(code))
	switch words[0] {
	case "run", "r", "start", "starti", "continue", "c", "cont":
		// The debugged program's own arguments may follow run; a
		// redirection there (run > /etc/x) is the shell's, so none.
		return words[0] != "continue" && words[0] != "c" && words[0] != "cont", !strings.ContainsAny(code, "<>")
	case "bt", "backtrace", "where", "info", "i", "list", "l", "frame", "f", "up", "down", "quit", "q", "kill", "k",
		"next", "n", "step", "s", "stepi", "nexti", "si", "ni", "finish", "fin", "until", "u", "advance", "break", "b",
		"tbreak", "rbreak", "watch", "rwatch", "awatch", "delete", "d", "disable", "enable", "display", "undisplay",
		"handle", "catch", "ptype", "whatis", "x", "disassemble", "thread", "bt-all", "register", "image", "breakpoint",
		"print", "p", "output", "po", "frame-variable", "v", "var":
		// Showing a value evaluates an expression: a function call in
		// it (print system("id")) runs code.
		if strings.ContainsAny(code, "()=") && words[0] != "break" && words[0] != "b" && words[0] != "tbreak" {
			return false, false
		}
		if words[0] == "thread" && len(words) > 1 && words[1] == "apply" && !slices.Contains(words, "bt") && !slices.Contains(words, "backtrace") {
			return false, false // thread apply all <any command>
		}
		return false, true
	case "set", "settings":
		// set pagination off, set confirm off, set print pretty on.
		if len(words) >= 2 && (words[1] == "pagination" || words[1] == "confirm" || words[1] == "print" || words[1] == "width" ||
			words[1] == "height" || words[1] == "verbose" || words[1] == "disassembly-flavor" || words[1] == "breakpoint" ||
			words[1] == "startup-with-shell" || words[1] == "set" && len(words) >= 3 && strings.HasPrefix(words[2], "target.")) {
			return false, !strings.ContainsAny(code, "()")
		}
	case "process":
		if len(words) >= 2 && words[1] == "launch" {
			return true, !strings.ContainsAny(code, "<>")
		}
	}
	return false, false
}

// decodeUTF16Base64 decodes PowerShell's -EncodedCommand (base64 of UTF-16LE).
func decodeUTF16Base64(s string) (string, bool) {
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b)%2 != 0 {
		return "", false
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return string(utf16.Decode(u)), true
}

// powerShellAsShell spells the PowerShell statements whose harm is plain in
// shell terms, for the shell rules to judge: recursive deletions
// (Remove-Item -Recurse -Force ~), uploads of a file (Invoke-RestMethod
// -InFile F, -Body (Get-Content F)) and downloads that are run
// (iex (New-Object Net.WebClient).DownloadString(U), irm U | iex).
func powerShellAsShell(code string) []string {
	var out []string
	home := func(p string) string {
		p = strings.Trim(strings.TrimSpace(p), `"'`)
		for _, h := range []string{"$HOME", "$env:HOME", "$env:USERPROFILE", "${HOME}", "${env:USERPROFILE}"} {
			if strings.HasPrefix(strings.ToLower(p), strings.ToLower(h)) {
				return "~" + strings.ReplaceAll(p[len(h):], `\`, "/")
			}
		}
		return strings.ReplaceAll(p, `\`, "/")
	}
	for _, st := range strings.FieldsFunc(code, func(r rune) bool { return r == ';' || r == '\n' }) {
		st = strings.TrimSpace(st)
		low := strings.ToLower(st)
		switch {
		case psDownloadRunRe().MatchString(st):
			if m := psURLRe().FindString(st); m != "" {
				out = append(out, "curl -s "+m+" | sh")
			}
		case psRemoveRe().MatchString(st):
			m := psRemoveRe().FindStringSubmatch(st)
			rest := m[2]
			if !strings.Contains(strings.ToLower(rest), "-r") {
				continue
			}
			var paths []string
			for _, f := range strings.FieldsFunc(rest, func(r rune) bool { return r == ' ' || r == ',' }) {
				if strings.HasPrefix(f, "-") {
					continue
				}
				paths = append(paths, home(f))
			}
			if len(paths) > 0 {
				out = append(out, "rm -rf "+strings.Join(paths, " "))
			}
		case strings.Contains(low, "invoke-restmethod") || strings.Contains(low, "invoke-webrequest") ||
			strings.HasPrefix(low, "irm ") || strings.HasPrefix(low, "iwr "):
			u := psURLRe().FindString(st)
			f := ""
			if m := psInFileRe().FindStringSubmatch(st); m != nil {
				f = home(m[1])
			} else if m := psBodyFileRe().FindStringSubmatch(st); m != nil {
				f = home(m[1])
			}
			if u != "" && f != "" {
				out = append(out, "curl -s -X POST --data-binary @"+f+" "+u)
			}
		}
	}
	return out
}

var (
	psRemoveRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(Remove-Item|ri|rm|del|erase|rmdir|rd)\s+(.*)$`)
	})
	psDownloadRunRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(iex|invoke-expression)\b.*\b(downloadstring|invoke-restmethod|invoke-webrequest|irm|iwr)\b|\b(downloadstring|invoke-restmethod|invoke-webrequest|irm|iwr)\b.*\|\s*(iex|invoke-expression)\b`)
	})
	psURLRe      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`https?://[^\s'"()]+`) })
	psInFileRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)-InFile\s+("[^"]+"|'[^']+'|\S+)`) })
	psBodyFileRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)-Body\s+\(\s*(?:Get-Content|gc|cat)\s+(?:-Raw\s+)?(?:-Path\s+)?("[^"]+"|'[^']+'|[^\s)]+)`)
	})
)

// sedInsertedText returns the text sed's a, i and c commands add to the
// files it edits (1i TEXT, $a\\TEXT): code put into sources.
func sedInsertedText(script string) []string {
	var out []string
	for _, m := range sedInsertRe().FindAllStringSubmatch(script, 8) {
		if t := strings.TrimSpace(m[1]); len(t) > 8 {
			out = append(out, t)
		}
	}
	return out
}

var sedInsertRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)(?:^|;)\s*(?:[0-9]+|\$|/[^/\n]*/)?\s*[aic]\\?\s*([^\n]+)$`)
})

// insertedCodeDanger reads text sed inserts into files as code of the
// languages sources are written in: code that sends the environment, the
// machine's details or a credential file over the network is a beacon
// planted in the project.
func insertedCodeDanger(script string) string {
	for _, t := range sedInsertedText(script) {
		for _, lang := range []string{"node", "python", "ruby", "php"} {
			ce := analyzeCode(lang, t)
			if slices.Contains(ce.Found, foundNetwork) && (slices.Contains(ce.Found, foundEnv) || slices.Contains(ce.Found, foundSecretPath)) {
				return lang + " code that sends the environment, the machine's details or a credential file over the network (" + short(t) + ")"
			}
		}
	}
	return ""
}
