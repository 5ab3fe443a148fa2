package secrets

import (
	"regexp"
	"strings"
	"sync"
)

// ourRules are hookguard's additions beside gitleaks' table: secrets gitleaks
// does not look for, or finds only in some spellings. Their examples live in
// testdata/cases.yaml with everyone else's.
var ourRules = append([]rule{
	{
		ID:          "private-key",
		Description: "a private key of any armored kind, also cut short or with escaped newlines",
		Regex:       `(?i)-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----(?:\s|\\[nr])+(?:(?:Proc-Type|DEK-Info|Version|Comment|Hash)[^\n\\]*(?:\s|\\[nr])+)*([A-Za-z0-9+/=]{40,}(?:(?:\s|\\[nr])+[A-Za-z0-9+/=]{4,})*)`,
		SecretGroup: 1,
		Keywords:    []string{"private key"},
		Confidence:  Token,
	},
	{
		ID:          "putty-private-key",
		Description: "a PuTTY private key",
		Regex:       `(?s)PuTTY-User-Key-File-\d:.*?Private-Lines:\s*\d+(?:\s|\\[nr])+([A-Za-z0-9+/=]{40,}(?:(?:\s|\\[nr])+[A-Za-z0-9+/=]{4,})*)`,
		SecretGroup: 1,
		Keywords:    []string{"putty-user-key-file"},
		Confidence:  Token,
	},
	{
		ID:          "model-provider-key",
		Description: "an API key of a model provider (Anthropic, OpenAI and OpenAI-style sk- keys) in any length",
		Regex:       `\b(sk-ant-(?:api|admin|sid|oat)\d{2}-[A-Za-z0-9_-]{24,}|sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{24,}|sk-[A-Za-z0-9]{32,})(?:[^A-Za-z0-9_-]|$)`,
		SecretGroup: 1,
		Keywords:    []string{"sk-"},
		Confidence:  Token,
	},
	{
		ID:          "vcs-token",
		Description: "a GitHub or GitLab token in any length, also a part of one (gitleaks' rules want the exact one)",
		Regex:       `\b((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{40,}|glpat-[A-Za-z0-9_-]{20,}|gl(?:dt|ft|soat|rt|cbt|imt|ptt|agent)-[A-Za-z0-9_-]{20,})`,
		SecretGroup: 1,
		Keywords:    []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "gldt-", "glft-", "glsoat-", "glrt-", "glcbt-", "glimt-", "glptt-", "glagent-"},
		Confidence:  Token,
	},
	{
		ID:          "discord-webhook-url",
		Description: "a Discord webhook URL: its last part is the token that lets anyone post to the channel",
		Regex:       `https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d{17,20}/([A-Za-z0-9_-]{60,80})`,
		SecretGroup: 1,
		Keywords:    []string{"discord.com/api/webhooks", "discordapp.com/api/webhooks"},
		Confidence:  Token,
	},

	{
		ID:          "azure-storage-key",
		Description: "the key of an Azure storage or Service Bus connection string, or a SAS signature",
		Regex:       `(?i)(?:\b(?:AccountKey|SharedAccessKey)\s*=\s*([A-Za-z0-9+/]{30,}={0,2})|[?&]sig=([A-Za-z0-9%+/=]{40,}))`,
		Keywords:    []string{"accountkey", "sharedaccesskey", "sig="},
		Confidence:  Token,
	},
	{
		ID:          "connection-string-password",
		Description: "a password in a URL of any scheme (scheme://user:password@host)",
		Regex:       `\b[A-Za-z][A-Za-z0-9+.-]{1,30}://[^\s:@/'"<>]{0,100}:([^\s@/'"<>]{3,200})@[A-Za-z0-9\[._-]`,
		SecretGroup: 1,
		Keywords:    []string{"://"},
		Confidence:  Token,
	},
	{
		ID:          "connection-string-password",
		Description: "a password parameter in a JDBC URL, DSN or ODBC/ADO connection string",
		Regex:       `(?i)[;?&]\s*(?:password|pwd)\s*=\s*([^;&\s'"]{3,200})`,
		SecretGroup: 1,
		Keywords:    []string{"password=", "pwd=", "password =", "pwd ="},
		Confidence:  Token,
	},
	{
		ID:          "env-assignment",
		Description: "a NAME=value assignment (.env line, export, docker -e) whose name says secret, token, password or key",
		Regex:       `(?m)(?:^|[\s;'"({=&?])(?:export\s+|-e\s+|--env[= ])?([A-Za-z][A-Za-z0-9_]*)[ \t]*=[ \t]*(?:'([^'\s]{6,200})'|"([^"\s]{6,200})"|["']?([^\s"'#;|&]{6,}))`,
		NameGroup:   1, // the secret: the first value group that matched (a quoted value whole)
		NameEnds:    secretNameEnds,
		Keywords:    []string{"secret", "token", "passw", "pwd", "key", "credential", "auth", "passphrase"},
		Near:        assignment,
		Confidence:  Positional,
	},
	{
		ID:          "option-secret",
		Description: "the value of a command-line option whose name says token, secret, password or key (--token X, --password=X)",
		Regex:       `(?:^|[\s'"])--?((?:[A-Za-z][A-Za-z0-9-]*)?(?i:token|secret|password|passwd|pwd|api-?key|apikey|access-?key|private-?key|credentials?|auth|passphrase))(?:=|[ \t]+)["']?([^\s"'-][^\s"']{3,})`,
		SecretGroup: 2,
		NameGroup:   1,
		Keywords:    []string{"secret", "token", "passw", "pwd", "key", "credential", "auth", "passphrase"},
		Near:        " =\t",
		Confidence:  Positional,
	},
	{
		ID:          "mysql-password-option",
		Description: "a password glued to -p of a MySQL client",
		Regex:       `\bmysql(?:dump|admin|sh|import|check|slap)?\b[^|;&\n]*?\s-p['"]?([^\s'"-][^\s'"]{2,})`,
		SecretGroup: 1,
		Keywords:    []string{"mysql"},
		Confidence:  Positional,
	},
	{
		ID:          "authorization-header",
		Description: "the credential of an Authorization header or an API-key header",
		Regex:       `(?i)\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:bearer|token|basic|digest|bot|apikey|sso-key)?\s*([A-Za-z0-9._~+/=:-]{12,})`,
		SecretGroup: 1,
		Keywords:    []string{"authorization"},
		Confidence:  Token,
	},
	{
		ID:          "authorization-header",
		Description: "the value of an API-key or token header",
		Regex:       `(?i)\bx-(?:[a-z0-9]+-)*(?:api-?key|key|auth-?token|access-?token|api-?token|secret|token)["']?\s*[:=]\s*["']?([A-Za-z0-9._~+/=-]{12,})`,
		SecretGroup: 1,
		Keywords:    []string{"x-api", "x-auth", "x-access", "x-secret", "x-token", "-key:", "-key\":", "-token:", "-secret:"},
		Confidence:  Token,
	},
	{
		ID:          "config-secret",
		Description: "a quoted or YAML value whose key says password, secret, token or key",
		Regex:       `(?m)(?:^|[\s{,(\[])["']?([A-Za-z_][\w.-]*)["']?\]?[ \t]*(?::|=>|:=|=)[ \t]*(?:["']([^"'\s]{6,200})["']|([^\s"'#,;{}\[\]]{8,200})[ \t]*$)`,
		NameGroup:   1,
		NameEnds:    configNameEnds,
		Keywords:    []string{"secret", "token", "passw", "pwd", "key", "credential", "passphrase"},
		Near:        assignment,
		Confidence:  Positional,
	},
	{
		ID:          "config-secret",
		Description: "an XML element whose name says password, secret, token or key (Maven settings.xml, NuGet.Config, .NET app.config)",
		Regex:       `<((?:[A-Za-z_][\w.-]*)?(?i:password|passwd|secret|token|api_?key|apikey|access_?key|private_?key|client_?secret|passphrase|credentials?))>[ \t]*([^<\s]{6,200})[ \t]*</`,
		SecretGroup: 2,
		NameGroup:   1,
		Keywords:    []string{"password>", "passwd>", "secret>", "token>", "key>", "passphrase>", "credential>", "credentials>"},
		Confidence:  Positional,
	},
	{
		ID:          "config-secret",
		Description: "a PHP define() of a password, key, salt or token (wp-config.php)",
		Regex:       `(?i)\bdefine\(\s*['"]([A-Z0-9_]*(?:PASSWORD|KEY|SECRET|SALT|TOKEN|PASS))['"]\s*,\s*['"]([^'"\s]{6,})['"]`,
		NameGroup:   1,
		Keywords:    []string{"define("},
		Confidence:  Positional,
	},
	{
		ID:          "password-in-prose",
		Description: "a password or key written out in a sentence (\"the prod password is …\")",
		Regex:       `(?i)\b((?:[\w-]+\s+)?(?:password|passwd|passphrase|pass ?code|pw|pwd|api[ _-]?key|secret[ _-]?key|(?:shared|client|webhook) secret|access[ _-]?token|token|pin|key))(?:\s+(?:for|of|on)\s+(?:the\s+)?[\w.@-]+(?:\s+[\w.@-]+){0,3}?)?(?:\s*\([^)\n]{1,60}\))?\s*(?:\s(?:is|was|to)\s|=|:|\s+["'\x60])\s*["'\x60]?([^\s"'\x60]{6,})`,
		NameGroup:   1,
		Keywords:    []string{"password", "passwd", "passphrase", "passcode", "pass code", "api key", "api-key", "api_key", "secret key", "token", "pin ", "key is", "key was", "shared secret", "client secret", "webhook secret", "pw:", "pw ", "pwd:"},
		MixedValue:  true,
		Confidence:  Positional,
		// A key's fingerprint (SHA256:…, a host key's) is public.
		Allowlists: []allowlist{{Regexes: []string{`^(?i:SHA256|SHA1|MD5):[A-Za-z0-9+/=:]{16,}$|^(?i:[0-9a-f]{2}:){15,}[0-9a-f]{2}$`}}},
	},
	{
		ID:          "google-oauth-access-token",
		Description: "a Google OAuth access token (ya29., what gcloud auth print-access-token prints)",
		Regex:       `\b(ya29\.[A-Za-z0-9_-]{50,})`,
		SecretGroup: 1,
		Entropy:     3.5,
		Keywords:    []string{"ya29."},
		Confidence:  Token,
	},

	{
		ID:          "value-as-name",
		Description: "a random-looking value a sentence says to use as a secret's variable (\"use `rnd_3ATY…` as RENDER_API_KEY\")",
		Regex:       `(?i)\b(?:use|set|put|paste|with)\s+["'\x60]?([A-Za-z0-9_+/=.~-]{20,200})["'\x60]?\s+(?:as|for|in|into)\s+(?:the\s+|your\s+|our\s+)?["'\x60$]?([A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*(?i:key|token|secret|password|passwd|pass|pwd))\b`,
		SecretGroup: 1,
		NameGroup:   2,
		MixedValue:  true,
		Entropy:     3.5,
		// The name's ending: the rule reads the window before it.
		Keywords:   []string{"_key", "_token", "_secret", "_password", "_passwd", "_pass", "_pwd"},
		Confidence: Positional,
	},
	{
		ID:          "named-value-in-prose",
		Description: "a value a sentence gives an environment-style secret name (\"the RAILS_MASTER_KEY on the server is e7cb…\", \"my OPENAI_API_KEY is …\")",
		Regex:       `\b([A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*(?i:key|token|secret|password|passwd|pass|pwd))\b(?:\s+(?:on|in|for|of|from)\s+(?:the\s+|my\s+|our\s+)?[\w.@-]+(?:\s+[\w.@-]+){0,2}?)?\s+(?:is|was|=|:|reads|says)\s+["'\x60]?([^\s"'\x60]{8,200})`,
		NameGroup:   1,
		MixedValue:  true,
		Entropy:     3,
		Keywords:    []string{"_key", "_token", "_secret", "_password", "_passwd", "_pass", "_pwd"},
		Confidence:  Positional,
	},
	{
		ID:          "login-pair",
		Description: "a login written as user / password (\"log in as admin@x.dev / 9EQT…\", \"connected with svc_etl / K6Qv…\", \"SQL: sqladmin / kEgy…\")",
		Regex:       "(?i)(?:\\b(?:log\\s?in(?:\\s+as)?|sign\\s?in(?:\\s+as)?|credentials?|creds|user(?:name)?|user\\s*/\\s*pass(?:word)?|username\\s*/\\s*password|with|as)\\b|:)[:\\s]{1,4}(?:(?:are|is|=)\\s+)?[`'\"]?(?:[\\w.+-]+@[\\w.-]+|[\\w.-]{3,})[`'\"]?\\s+/\\s+[`'\"]?([^\\s/`'\"]{8,})",
		SecretGroup: 1,
		MixedValue:  true,
		Entropy:     2.5,
		Keywords:    []string{" / "},
		Confidence:  Positional,
	},
	{
		ID:          "url-query-secret",
		Description: "a key, token or password passed in a URL's query string (?key=…, &access_token=…)",
		Regex:       `(?i)[?&]((?:api[_-]?)?key|token|access_token|auth|auth_token|secret|client_secret|password|passwd|sig|signature|apikey|appid|app_?key|private_token)=([A-Za-z0-9_\-.~%]{10,})(?:[&#\s"'\x60]|$)`,
		SecretGroup: 2,
		NameGroup:   1,
		MixedValue:  true,
		Entropy:     3,
		Keywords:    []string{"key=", "token=", "auth=", "secret=", "password=", "passwd=", "sig=", "signature=", "appid="},
		Confidence:  Positional,
	},
	{
		ID:          "named-key",
		Description: "a key named for what it guards (a Rails master.key, a secret, signing or encryption key, SECRET_KEY_BASE) given as a long hex or base64 value",
		Regex:       `(?i)\b((?:master|secret|signing|encryption|hmac|app)[._ -]?key(?:[._ -]?base)?)\b["']?\s*(?::|=|\bis\b)\s*["'\x60]?([0-9a-f]{32,}|[A-Za-z0-9+/_-]{32,}={0,2})(?:[^A-Za-z0-9+/=_-]|$)`,
		SecretGroup: 2,
		NameGroup:   1,
		Entropy:     3,
		Keywords:    []string{"master.key", "master_key", "master key", "masterkey", "secret_key", "secret key", "secret.key", "secretkey", "signing_key", "signing key", "signing.key", "encryption_key", "encryption key", "encryption.key", "hmac_key", "hmac key", "app_key", "app.key", "key_base"},
		Confidence:  Token,
	},
	{
		ID:          "aws-access-key-id",
		Description: "an AWS access key id with any letters and digits after its prefix (gitleaks' rule wants base32, which real ids are, and misses hand-made or mistyped ones)",
		Regex:       `\b((?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})\b`,
		SecretGroup: 1,
		Entropy:     3,
		Keywords:    []string{"akia", "asia", "abia", "acca"},
		Confidence:  Token,
	},
	{
		ID:          "session-cookie",
		Description: "a web session cookie (Rails, Express, Django, PHP and framework-named session or remember-me cookies) with its value",
		Regex:       `(?i)(?:^|[\s;,'"(])((?:__(?:Secure|Host)-)?[\w.-]*(?:_session|session_?id|sessid|connect\.sid|remember_(?:user_)?token|_sess|\.sid)|session)=([A-Za-z0-9%_.+/=:-]{32,})`,
		SecretGroup: 2,
		Entropy:     3.5,
		MixedValue:  true,
		Keywords:    []string{"session", "sessid", ".sid=", "_sess=", "remember_"},
		Confidence:  Positional,
		// A request or trace id logged as session=<uuid> names a session; it is not one.
		Allowlists: []allowlist{{Regexes: []string{`^(?i:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$`}}},
	},
	{
		ID:          "cookie-jar-entry",
		Description: "a cookie saved in a Netscape cookie file (cookies.txt from curl, wget or a browser export): domain, flags, path, expiry, name and value separated by tabs",
		Regex:       `(?m)^(?:#HttpOnly_)?\.?[\w.-]+\t(?:TRUE|FALSE)\t[^\t\n]*\t(?:TRUE|FALSE)\t\d+\t[^\t\n]+\t([^\t\n]{16,})$`,
		SecretGroup: 1,
		Entropy:     3,
		MixedValue:  true,
		Keywords:    []string{"\ttrue\t", "\tfalse\t"},
		Confidence:  Positional,
	},
	{
		ID:          "bearer-assignment",
		Description: "a token, secret or password setting whose value is an HTTP credential (token = \"Bearer …\", auth: \"Basic …\")",
		Regex:       `(?i)\b([\w.-]*(?:token|secret|auth|authorization|api[_-]?key|credentials?|password|header))["']?\s*(?:=|:)\s*["'\x60]?(?:bearer|token|basic)\s+([A-Za-z0-9._~+/=-]{16,})`,
		SecretGroup: 2,
		Entropy:     3,
		MixedValue:  true,
		Keywords:    []string{"bearer ", "basic ", "token "},
		Confidence:  Positional,
	},
	{
		ID:          "telegram-bot-token",
		Description: "a Telegram bot token (bot id, a colon, AA and 33 characters) without the word telegram nearby, also in an API URL (/bot<token>/)",
		Regex:       `(?:^|[^0-9A-Za-z_:]|/bot)([0-9]{6,12}:AA[A-Za-z0-9_-]{30,40})(?:[^A-Za-z0-9_-]|$)`,
		SecretGroup: 1,
		Keywords:    []string{":aa"},
		Confidence:  Token,
	},
	{
		ID:          "stripe-webhook-secret",
		Description: "a Stripe webhook signing secret",
		Regex:       `\b(whsec_[A-Za-z0-9+/=]{24,})`,
		SecretGroup: 1,
		Entropy:     3,
		Keywords:    []string{"whsec_"},
		Confidence:  Token,
	},
	{
		ID:          "ethereum-private-key",
		Description: "a 32-byte hex private key where a wallet or deployer account takes one (accounts: ['0x…'], new Wallet('0x…'), privateKeyToAccount)",
		Regex:       `(?i)(?:\baccounts\s*:\s*\[\s*|\bwallet\(\s*|privatekeytoaccount\(\s*|fromprivatekey\(\s*|\bsigner\(\s*|\bprivate_?key["']?\s*[:=]\s*)["'\x60]((?:0x)?[0-9a-f]{64})["'\x60]`,
		SecretGroup: 1,
		Entropy:     3,
		Keywords:    []string{"accounts", "wallet(", "privatekeytoaccount(", "fromprivatekey(", "signer(", "private_key", "privatekey"},
		Confidence:  Token,
	},
	{
		ID:          "bitcoin-private-key",
		Description: "a WIF-shaped private key named as one (the checksummed form is found anywhere by its checksum)",
		Regex:       `(?i)\b(?:wif|private key|privkey|priv key)\b[^\n]{0,60}?\b((?-i:[5][1-9A-HJ-NP-Za-km-z]{50}|[KL][1-9A-HJ-NP-Za-km-z]{51}))\b`,
		SecretGroup: 1,
		Entropy:     3.5,
		Keywords:    []string{"wif", "private key", "privkey", "priv key"},
		Confidence:  Token,
	},
	{
		ID:          "basic-auth-credentials",
		Description: "a user and password or token given to an HTTP client's -u/--user option (curl -u SID:TOKEN)",
		Regex:       `(?:^|\s)(?:-u|--user)[ =]['"]?[A-Za-z0-9._@+-]{2,64}:([A-Za-z0-9+/=_.~!-]{12,})['"]?(?:\s|\\|$)`,
		SecretGroup: 1,
		Entropy:     3,
		Keywords:    []string{"-u ", "--user"},
		Confidence:  Positional,
	},
	{
		ID:          "discord-user-token",
		Description: "a Discord user or bot token (three dot-separated parts, the first the base64 of the account id) near the word discord",
		Regex:       `\b([A-Za-z0-9][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40})\b`,
		SecretGroup: 1,
		Entropy:     3.5,
		Keywords:    []string{"discord"},
		Confidence:  Token,
	},
	{
		ID:          "stripe-secret-key",
		Description: "a Stripe secret or restricted key, live or test, of any length (gitleaks' rule stops at 99 characters; today's keys are longer)",
		Regex:       `\b((?:sk|rk)_(?:live|prod|test)_[A-Za-z0-9]{20,})`,
		SecretGroup: 1,
		Entropy:     3.5,
		Keywords:    []string{"sk_live_", "rk_live_", "sk_prod_", "rk_prod_", "sk_test_", "rk_test_"},
		Confidence:  Token,
	},
	{
		ID:          "vault-token",
		Description: "a HashiCorp Vault service, batch or recovery token of any length (gitleaks' rules want 90 characters or more)",
		Regex:       `\b(hv[sbr]\.[A-Za-z0-9_-]{24,300})(?:[^A-Za-z0-9_-]|$)`,
		SecretGroup: 1,
		Entropy:     3.5,
		Keywords:    []string{"hvs.", "hvb.", "hvr."},
		Confidence:  Token,
	},
	{
		ID:          "docker-hub-token",
		Description: "a Docker Hub personal or organization access token",
		Regex:       `\b(dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,})`,
		SecretGroup: 1,
		Entropy:     3,
		Keywords:    []string{"dckr_pat_", "dckr_oat_"},
		Confidence:  Token,
	},
	{
		ID:          "firebase-cloud-messaging-key",
		Description: "a Firebase Cloud Messaging legacy server key (AAAA…:APA91b…)",
		Regex:       `\b(AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,200})`,
		SecretGroup: 1,
		Entropy:     3.5,
		Keywords:    []string{":apa91b"},
		Confidence:  Token,
	},
	{
		ID:          "spaced-token",
		Description: "a hex token written in groups split by spaces or dashes right after the word that names it (split to get past a scanner); not a key fingerprint",
		Regex:       `(?i)\b(?:token|secret|key|password|passwd)\b[^\n]{0,24}?\b((?:[0-9a-f]{4,8}[ -]){4,15}[0-9a-f]{4,8})\b`,
		SecretGroup: 1,
		Entropy:     2.5,
		Keywords:    []string{"token", "secret", "key", "password", "passwd"},
		Confidence:  Positional,
		Allowlists:  []allowlist{{RegexTarget: "line", Regexes: []string{`(?i)fingerprint|\bsha-?(1|256|512)\b|\bmd5\b|checksum|\bhash\b|\bdigest\b|\bmac address\b|\buuid\b|\bguid\b`}}},
	},
	{
		ID:          "twilio-auth-token",
		Description: "a Twilio auth token written next to its account SID (AC…)",
		Regex:       `\bAC[0-9a-f]{32}\b[^\n]{0,80}?\b([0-9a-f]{32})\b`,
		SecretGroup: 1,
		Entropy:     3,
		Keywords:    []string{"ac"},
		Confidence:  Token,
	},
	{
		ID:          "kubeconfig-client-key",
		Description: "the client key of a kubeconfig user (client-key-data), a base64 private key",
		Regex:       `\bclient-key-data:\s*["']?([A-Za-z0-9+/]{40,}={0,2})`,
		SecretGroup: 1,
		Entropy:     3.5,
		Keywords:    []string{"client-key-data"},
		Confidence:  Token,
	},
	{
		ID:          "registry-login-password",
		Description: "a password given on the command line of a registry login (docker login -p …)",
		Regex:       `\b(?:docker|podman|nerdctl|buildah|skopeo|oras|helm\s+registry)\s+login\b[^\n|;&]*?\s(?:-p|--password)[ =]["']?([^\s"'$]{6,})`,
		SecretGroup: 1,
		Keywords:    []string{"login"},
		Confidence:  Positional,
	},
	{
		ID:          "docker-config-auth",
		Description: "a registry login in a Docker config (auths → auth: base64 of user:password)",
		Regex:       `(?s)"auths"\s*:\s*\{.{0,400}?"auth"\s*:\s*"([A-Za-z0-9+/]{12,}={0,2})"`,
		SecretGroup: 1,
		Entropy:     3,
		Keywords:    []string{`"auths"`},
		Confidence:  Token,
	},
	{
		ID:          "connection-string-password",
		Description: "a password in a Go MySQL DSN (user:password@tcp(host:port)/db)",
		Regex:       `\b[\w.-]{1,64}:([^\s@/'"]{6,200})@(?:tcp|unix|tcp6)\(`,
		SecretGroup: 1,
		Keywords:    []string{"@tcp(", "@unix(", "@tcp6("},
		Confidence:  Token,
	},
	{
		ID:          "jwk-private-key",
		Description: "the private part of a JSON Web Key (its \"d\", \"p\" or \"q\" member)",
		Regex:       `"(?:d|p|q|dp|dq)"\s*:\s*"([A-Za-z0-9_+/-]{32,}={0,2})"`,
		SecretGroup: 1,
		Entropy:     3.5,
		Keywords:    []string{`"d"`, `"p"`, `"q"`, `"dp"`, `"dq"`},
		Confidence:  Token,
	},
	{
		ID:          "nuget-api-key",
		Description: "a NuGet.org API key (oy2 and 43 lower-case letters and digits)",
		Regex:       `\b(oy2[a-z0-9]{43})\b`,
		SecretGroup: 1,
		Entropy:     3.5,
		Keywords:    []string{"oy2"},
		Confidence:  Token,
	},
	{
		ID:          "new-relic-license-key",
		Description: "a New Relic ingest license key (36 hexadecimal digits and NRAL)",
		Regex:       `\b([a-f0-9]{36}NRAL)\b`,
		SecretGroup: 1,
		Keywords:    []string{"nral"},
		Confidence:  Token,
	},
	{
		ID:          "heroku-auth-token-output",
		Description: "the token heroku auth:token prints (a UUID in its output)",
		Regex:       `(?i)heroku\s+auth:token\b[\s\S]{0,300}?\b([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b`,
		SecretGroup: 1,
		Keywords:    []string{"auth:token"},
		Confidence:  Token,
	},
	{
		ID:          "token-named-earlier",
		Description: "a random-looking value given later in the sentence that names a token, key, secret or password (\"I made a new API token …, it's Zq8v…\")",
		Regex:       `(?i)\b((?:[\w-]+\s+)?(?:api[ _-]?)?(?:token|key|secret|password|passphrase|credential)s?)\b[^\n]{0,60}?[\s,;(](?:it's|it is|here's|here is|here it is|which is|that is|its value is)\s*:?\s*["'\x60]?([A-Za-z0-9+/_=.~-]{24,200})`,
		NameGroup:   1,
		Entropy:     4,
		StrongValue: true,
		// The words that hand the value over, rarer than the nouns: the
		// rule runs only around them (the noun is read in the window
		// before).
		Keywords:   []string{"it's", "it is", "here's", "here is", "which is", "that is", "its value is"},
		Confidence: Positional,
		// A publishable key (Stripe's pk_live_…, Mapbox's pk.…) is public.
		Allowlists: []allowlist{{Regexes: []string{`^pk[_.]`}}},
	},
}, prefixedTokenRules()...)

// secretNameEnds are the words an assignment's name ends with when it holds
// a secret (env-assignment): matched in Go on the name the expression
// takes whole, which costs the expression far less than an alternation of
// them after an optional identifier (its NFA ran every branch at every
// letter).
var secretNameEnds = nameEnds(`secret token password passwd pwd credential credentials auth passphrase master_secret mastersecret
	api_key apikey access_key accesskey private_key privatekey client_key clientkey signing_key signingkey master_key masterkey
	encryption_key encryptionkey secret_key secretkey app_key appkey admin_key adminkey license_key licensekey service_key servicekey
	write_key writekey ingest_key ingestkey server_key serverkey deploy_key deploykey sdk_key sdkkey account_key accountkey
	subscription_key subscriptionkey`)

// configNameEnds are secretNameEnds for config-secret's keys (auth alone
// is not one: auth: true, auth: oauth2).
var configNameEnds = nameEnds(`password passwd pwd secret token passphrase credential credentials client_secret clientsecret
	master_secret mastersecret api_key apikey access_key accesskey private_key privatekey secret_key secretkey signing_key signingkey
	encryption_key encryptionkey master_key masterkey app_key appkey admin_key adminkey license_key licensekey service_key servicekey
	write_key writekey ingest_key ingestkey server_key serverkey deploy_key deploykey sdk_key sdkkey account_key accountkey
	subscription_key subscriptionkey`)

// nameEnds splits a list of name endings.
func nameEnds(list string) []string { return strings.Fields(list) }

// endsWithAny reports whether the lower-cased name ends with one of ends.
func endsWithAny(name string, ends []string) bool {
	low := strings.ToLower(name)
	for _, e := range ends {
		if strings.HasSuffix(low, e) {
			return true
		}
	}
	return false
}

// assignment are the characters that join a name to its value.
const assignment = "=:>,|"

// labeled is what introduces a token in prose without a separator ("auth
// token 1e1c…", "api key Zq8v…"): the value must then look random.
var labeledToken = rule{
	ID:          "labeled-token",
	Description: "a random-looking value right after the words auth token, api key, secret key, access key, admin key (and other keys that say what they unlock) or password",
	Regex:       `(?i)\b((?:[\w-]+\s+)?(?:auth[ _-]?token|api[ _-]?key|secret[ _-]?key|access[ _-]?key|(?:admin|master|write|server|service|private|signing|client|app)[ _-]?key|[a-z]*[_-]?token|password|[a-z]*[_-]?secret))\s+["'\x60]?([A-Za-z0-9+_=.~-]{20,200})`,
	NameGroup:   1,
	Entropy:     3.5,
	MixedValue:  true,
	Keywords: []string{"token", "api key", "api-key", "api_key", "secret", "access key", "access-key", "password", "admin key",
		"master key", "write key", "server key", "service key", "private key", "signing key", "client key", "app key"},
	Confidence: Positional,
}

// nonSecretNameSuffixes end names that hold something about a secret, not
// the secret itself (TOKEN_FILE, password_hash, secretName).
var nonSecretNameSuffixes = []string{"file", "path", "dir", "url", "uri", "name", "id", "ids", "length", "len", "size",
	"ttl", "type", "header", "field", "ref", "env", "var", "hash", "policy", "expiry", "expires", "expiration",
	"enabled", "required", "prefix", "count", "stdin", "mode", "region", "endpoint", "version", "rotation", "format",
	"label", "kind", "keyid", "arn", "provider", "storage", "store", "manager", "command", "cmd", "helper"}

// secretName reports whether a key or option name names a secret itself:
// its last word (split at _ . - and camel case) must not say it holds
// something about the secret (a file, a name, a length).
func secretName(name string) bool {
	low := strings.ToLower(name)
	for _, w := range []string{"public", "publishable", "existing", "secretref", "secret_ref", "secretkeyref", "valuefrom", "pubkey", "csrf", "xsrf", "tokenizer", "keyboard", "keystroke",
		"keyword", "keymap", "monkey", "turkey", "donkey", "hotkey", "sortkey", "sort_key", "primary_key", "foreign_key",
		"cache_key", "cachekey", "idempotency", "partition_key", "keyframe", "keyspace", "author", "max_tokens", "maxtokens",
		// A hash of a secret (detect-secrets' hashed_secret, a checksum) is not the secret.
		"hashed_secret", "secret_hash", "secrethash", "token_hash", "tokenhash", "checksum", "fingerprint",
		// Mixpanel's project token is sent by every browser that loads the page.
		"project token", "project_token", "projecttoken"} {
		if strings.Contains(low, w) {
			return false
		}
	}
	words := nameWords(name)
	if len(words) == 0 {
		return false
	}
	last := words[len(words)-1]
	for _, s := range nonSecretNameSuffixes {
		if last == s {
			return false
		}
	}
	return true
}

// nameWords splits an identifier at _ . - and lower-to-upper case changes,
// lowercased.
func nameWords(name string) []string {
	var words []string
	var cur []byte
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_' || c == '.' || c == '-' || c == ' ' || c == '"' || c == '\'':
			flush()
		case c >= 'A' && c <= 'Z' && i > 0 && name[i-1] >= 'a' && name[i-1] <= 'z':
			flush()
			cur = append(cur, c)
		default:
			cur = append(cur, c)
		}
	}
	flush()
	return words
}

// positionalValue reports whether a value that stands where a secret goes
// looks like one: not a placeholder, not a number, path, flag or word.
// codeCallRe matches a value that is code: a name called or indexed
// (os.environ["X"], getenv("X"), vault(...)), or a bracketed literal.
var codeCallRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z_$][\w.$:-]*\s*[(\[{]|^[(\[{]`)
})

func positionalValue(v string) bool {
	if Placeholder(v) {
		return false
	}
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "~/") || strings.HasPrefix(v, "@") {
		return false // a file holding the secret, not the secret
	}
	if strings.HasPrefix(v, "pk.eyJ") || strings.HasPrefix(v, "pk_live_") || strings.HasPrefix(v, "pk_test_") {
		return false // a publishable key (Mapbox's, Stripe's): public by design
	}
	if strings.ContainsAny(v, "([{") && codeCallRe().MatchString(v) {
		return false // code that fetches the value (os.environ[…], getenv(…))
	}
	if t := strings.TrimRight(v, "),;"); t != v && codeIdentifier(t) {
		if strings.ContainsAny(v[len(t):], ");") || strings.Contains(t, ".") || identifierLike(t) {
			// An argument passed on in code: Client(api_key=api_key), or a
			// name before a comma (password=db_pass,).
			return false
		}
		// "the password is hmCU…5, update it": the value before prose's comma.
		v = t
		if Placeholder(v) {
			return false
		}
	}
	low := strings.ToLower(v)
	for _, ref := range []string{"process.env", "environ", "getenv", "env.", "config.", "settings.", "secrets.", "vault:", "secretkeyref", "keyvault"} {
		if strings.Contains(low, ref) {
			return false
		}
	}
	digits, letters, upper, other := 0, 0, 0, 0
	for _, c := range v {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c >= 'a' && c <= 'z':
			letters++
		case c >= 'A' && c <= 'Z':
			letters++
			upper++
		default:
			other++
		}
	}
	if letters == 0 && other == 0 {
		return false // a number (a port, a length)
	}
	if identifierLike(v) {
		return false // a name: search-db, db_credentials, checkout.v2
	}
	if digits == 0 && other == 0 && (upper == 0 || upper == letters) && len(v) < 20 {
		return false // one word (basic, bearer, oauth2 is caught by digits) or an ENV_NAME
	}
	if digits == 0 && other == 0 && len(v) < 12 {
		return false // a word in camel case
	}
	return true
}

// codeIdentifier reports a name or dotted name as code writes it
// (api_key, self.token, cfg.DB_PASSWORD).
func codeIdentifier(v string) bool {
	if v == "" || v[0] >= '0' && v[0] <= '9' {
		return false
	}
	for _, c := range v {
		if !(c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// identifierLike reports lower-case words joined by - _ . or :, with digits
// only as a short suffix (search-db, rate:limit:user, checkout.v2): names
// of things, not secrets.
func identifierLike(v string) bool {
	words := strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == ':' })
	if len(words) < 2 {
		return false
	}
	for _, w := range words {
		letters := strings.TrimRight(w, "0123456789")
		if len(w)-len(letters) > 4 {
			return false
		}
		for _, c := range letters {
			if c < 'a' || c > 'z' {
				return false
			}
		}
	}
	return true
}

// prefixedTokens are tokens whose prefix names their provider: the prefix
// and the length say what they are wherever they stand, with no word such
// as "token" near them. Each becomes a rule of its own (prefixedTokenRules),
// woken only by its own keywords; entropy, when not 0, is the least the
// token's body must have.
var prefixedTokens = []struct {
	id, what, regex string
	keywords        []string
	entropy         float64
}{
	{"huggingface-token", "a Hugging Face token in any alphabet (gitleaks' rule wants letters only)", `hf_[A-Za-z0-9]{30,}`, []string{"hf_"}, 0},
	{"crates-io-token", "a crates.io API token", `cio[A-Za-z0-9]{32}`, []string{"cio"}, 0},
	{"render-api-key", "a Render API key (rnd_ and 32 letters and digits)", `rnd_[A-Za-z0-9]{32}`, []string{"rnd_"}, 3.5},
	{"replicate-api-token", "a Replicate API token", `r8_[A-Za-z0-9]{37}`, []string{"r8_"}, 0},
	{"groq-api-key", "a Groq API key", `gsk_[A-Za-z0-9]{52}`, []string{"gsk_"}, 0},
	{"xai-api-key", "an xAI API key", `xai-[A-Za-z0-9]{60,100}`, []string{"xai-"}, 0},
	{"openrouter-api-key", "an OpenRouter API key", `sk-or-v1-[0-9a-f]{64}`, []string{"sk-or-v1-"}, 0},
	{"pinecone-api-key", "a Pinecone API key", `pcsk_[A-Za-z0-9]{4,8}_[A-Za-z0-9]{40,}`, []string{"pcsk_"}, 0},
	{"langsmith-api-key", "a LangSmith API key", `lsv2_(?:pt|sk)_[0-9a-f]{32}_[0-9a-f]{10}`, []string{"lsv2_"}, 0},
	{"supabase-token", "a Supabase access token or secret key", `sbp_[0-9a-f]{40}|sb_secret_[A-Za-z0-9_-]{20,}`, []string{"sbp_", "sb_secret_"}, 0},
	{"neon-api-key", "a Neon API key", `napi_[A-Za-z0-9]{64}`, []string{"napi_"}, 0},
	{"netlify-access-token", "a Netlify personal access token", `nfp_[A-Za-z0-9]{36,40}`, []string{"nfp_"}, 0},
	{"notion-token", "a Notion integration token", `ntn_[A-Za-z0-9]{40,50}`, []string{"ntn_"}, 0},
	{"figma-token", "a Figma personal access token", `figd_[A-Za-z0-9_-]{40,}`, []string{"figd_"}, 0},
	{"tailscale-key", "a Tailscale auth or API key", `tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{8,}-[A-Za-z0-9]{20,}`, []string{"tskey-"}, 0},
	{"new-relic-user-key", "a New Relic user API key", `NRAK-[A-Z0-9]{27}`, []string{"nrak-"}, 0},
	{"resend-api-key", "a Resend API key", `re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}`, []string{"re_"}, 0},
	{"bitbucket-app-password", "a Bitbucket app password", `ATBB[A-Za-z0-9]{28,}`, []string{"atbb"}, 0},
	{"doppler-token", "a Doppler service, CLI or personal token", `dp\.(?:st|sa|ct|pt|scim|audit)\.[A-Za-z0-9_.-]{40,}`, []string{"dp.st.", "dp.sa.", "dp.ct.", "dp.pt.", "dp.scim.", "dp.audit."}, 0},
	{"mapbox-secret-token", "a Mapbox secret token", `sk\.eyJ1Ijoi[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}`, []string{"sk.eyj1ijoi"}, 0},
	{"heroku-api-key", "a Heroku API key in its current format", `HRKU-[A-Za-z0-9_-]{36,}`, []string{"hrku-"}, 0},
	{"circleci-token", "a CircleCI personal or project API token", `CCIP(?:AT|RJ)_[A-Za-z0-9]{22}_[0-9a-f]{40}`, []string{"ccipat_", "cciprj_"}, 0},
	{"buildkite-token", "a Buildkite API access token", `bkua_[0-9a-f]{40}`, []string{"bkua_"}, 0},
	{"contentful-token", "a Contentful personal access token", `CFPAT-[A-Za-z0-9_-]{43}`, []string{"cfpat-"}, 0},
	{"mailgun-api-key", "a Mailgun private API key", `key-[0-9a-f]{32}`, []string{"key-"}, 0},
	{"fireworks-api-key", "a Fireworks AI API key", `fw_[A-Za-z0-9]{24,}`, []string{"fw_"}, 0},
	{"age-secret-key", "an age encryption secret key", `AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`, []string{"age-secret-key-1"}, 0},
}

// prefixedTokenRules returns the rules of prefixedTokens.
func prefixedTokenRules() []rule {
	out := make([]rule, len(prefixedTokens))
	for i, t := range prefixedTokens {
		out[i] = rule{ID: t.id, Description: t.what + " (its prefix and length say what it is, wherever it stands)",
			Regex: `\b(` + t.regex + `)\b`, SecretGroup: 1, Keywords: t.keywords, Entropy: t.entropy, Confidence: Token}
	}
	return out
}
