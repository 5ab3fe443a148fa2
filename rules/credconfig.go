package rules

import (
	"encoding/json"
	"path"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/hookguard/hookguard/internal/text"
	"github.com/hookguard/hookguard/rules/secrets"
)

// credentialConfigWithoutSecrets reports a credential file of a known format
// whose content, as read, holds no credential: a Docker config.json that only
// names credential helpers (credsStore, credHelpers, empty auths), or a
// kubeconfig whose users authenticate through an exec plugin or certificate
// files. Anything it cannot parse, or any field that holds a token, a
// password or a private key, is not.
func credentialConfigWithoutSecrets(p, content string) bool {
	p = strings.ReplaceAll(p, "\\", "/")
	base := path.Base(p)
	switch {
	case base == "config.json" && strings.Contains(p, ".docker/"):
		return dockerConfigWithoutSecrets(content)
	case strings.HasSuffix(p, ".kube/config") || strings.Contains(p, ".kube/config-") || strings.Contains(p, ".kube/config.") ||
		base == "kubeconfig" || strings.HasSuffix(base, ".kubeconfig") || strings.HasPrefix(base, "kubeconfig"):
		return kubeconfigWithoutSecrets(content)
	case testEnvFile(base):
		return testEnvWithoutSecrets(content)
	case strings.HasPrefix(base, ".env") && !strings.Contains(strings.ToLower(base), "prod") && !strings.Contains(strings.ToLower(base), "stag"):
		// A production or staging env file stays a credential file whatever
		// its values look like.
		return envPublicOnly(content)
	case base == ".npmrc" || base == ".yarnrc" || base == ".yarnrc.yml":
		return npmrcWithoutSecrets(content)
	case testFixturePath(p):
		return fixtureWithoutSecrets(content)
	}
	return false
}

// testFixturePath reports a file in a test suite's data folder (testdata,
// tests/fixtures, __fixtures__, spec/fixtures, __mocks__).
func testFixturePath(p string) bool {
	for _, c := range strings.Split(strings.ToLower(p), "/") {
		switch c {
		case "testdata", "fixtures", "__fixtures__", "__mocks__", "test-fixtures", "test_fixtures":
			return true
		}
	}
	return false
}

// fixtureWithoutSecrets reports test data (JSON, YAML or NAME=value lines)
// whose every value under a name that says secret (key, token, password,
// secret, credential, auth) is a throwaway: sk_test_…, a value that says it
// is fake, dummy or an example, a local address. Content it cannot parse,
// or with no such value at all, is not.
func fixtureWithoutSecrets(content string) bool {
	t := strings.TrimSpace(content)
	for strings.HasPrefix(t, "#") || strings.HasPrefix(t, ";") {
		// # Example values from the AWS documentation.\n[default]: comments
		// before the first section.
		_, rest, _ := strings.Cut(t, "\n")
		t = strings.TrimSpace(rest)
	}
	if strings.HasPrefix(t, "[") && !strings.HasPrefix(t, "[{") && !strings.HasPrefix(t, "[\"") && strings.Contains(t, "=") {
		return iniWithoutSecrets(content) // [default] / key = value: INI, which YAML reads as something else
	}
	var doc any
	if json.Unmarshal([]byte(content), &doc) != nil {
		if yaml.Unmarshal([]byte(content), &doc) != nil {
			return iniWithoutSecrets(content)
		}
	}
	if _, ok := doc.(string); ok || doc == nil {
		return testEnvWithoutSecrets(content)
	}
	named, ok := 0, true
	var walk func(key string, v any)
	walk = func(key string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				walk(k, x)
			}
		case []any:
			for _, x := range v {
				walk(key, x)
			}
		case string:
			low := strings.ToLower(key)
			for _, w := range []string{"key", "token", "secret", "password", "passwd", "credential", "auth", "private"} {
				if strings.Contains(low, w) {
					named++
					if !throwawayValue(v) {
						ok = false
					}
					break
				}
			}
		}
	}
	walk("", doc)
	return ok && named > 0
}

// iniWithoutSecrets reports INI-style test data ([section] and key = value
// lines, as in an AWS credentials fixture) whose every value under a name
// that says secret is a throwaway (a documented sample key, a fake value).
func iniWithoutSecrets(content string) bool {
	named := 0
	for _, line := range strings.Split(content, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' || line[0] == '[' && strings.HasSuffix(line, "]") {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			return false // not INI
		}
		low := strings.ToLower(strings.TrimSpace(key))
		for _, w := range []string{"key", "token", "secret", "password", "passwd", "credential", "auth", "private"} {
			if strings.Contains(low, w) {
				named++
				if !throwawayValue(strings.TrimSpace(value)) {
					return false
				}
				break
			}
		}
	}
	return named > 0
}

// npmrcWithoutSecrets reports an npm or yarn configuration whose every
// credential setting (_authToken, _auth, _password, npmAuthToken, …) takes
// its value from the environment (${NPM_TOKEN}), as CI templates do.
func npmrcWithoutSecrets(content string) bool {
	for _, line := range strings.Split(content, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			key, value, ok = strings.Cut(line, ":") // .yarnrc.yml
			if !ok {
				continue
			}
		}
		low := strings.ToLower(key)
		if !strings.Contains(low, "auth") && !strings.Contains(low, "password") && !strings.Contains(low, "token") {
			continue
		}
		value = strings.Trim(strings.TrimSpace(value), `"'`)
		if !strings.HasPrefix(value, "${") || !strings.HasSuffix(value, "}") || strings.Count(value, "$") != 1 {
			return false
		}
	}
	return true
}

// publicEnvPrefixes mark variables a front-end build ships to every browser
// (NEXT_PUBLIC_API_URL): public by design.
var publicEnvPrefixes = []string{"NEXT_PUBLIC_", "VITE_", "REACT_APP_", "EXPO_PUBLIC_", "NUXT_PUBLIC_", "GATSBY_", "PUBLIC_",
	"VUE_APP_"}

// envPublicOnly reports an env file whose every variable is public by its
// name (NEXT_PUBLIC_…), or holds a local address, a number, a boolean or a
// short word: nothing in it unlocks anything elsewhere.
func envPublicOnly(content string) bool {
	values := 0
	for _, line := range strings.Split(content, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, value, ok := strings.Cut(strings.TrimPrefix(line, "export "), "=")
		if !ok || strings.ContainsAny(strings.TrimSpace(name), " \t") {
			return false
		}
		values++
		value = strings.Trim(strings.TrimSpace(value), `"'`)
		public := false
		for _, p := range publicEnvPrefixes {
			public = public || strings.HasPrefix(strings.TrimSpace(name), p)
		}
		if public && !strings.HasPrefix(value, "sk_") && !strings.HasPrefix(value, "sk-") {
			continue
		}
		upper := strings.ToUpper(name)
		secretName := false
		for _, w := range []string{"KEY", "SECRET", "TOKEN", "PASS", "PWD", "AUTH", "CREDENTIAL", "PRIVATE", "SALT", "SIGNING"} {
			secretName = secretName || strings.Contains(upper, w)
		}
		if value == "" || secrets.Placeholder(value) {
			continue
		}
		if !secretName && (text.Digits(value) || len(value) <= 12 && strings.Trim(strings.ToLower(value), "abcdefghijklmnopqrstuvwxyz-_.") == "") {
			continue // a number, a boolean, a mode (development, debug)
		}
		if i := strings.Index(value, "://"); i > 0 && !strings.Contains(value, "@") && throwawayValue(value) {
			continue // a local address without credentials (http://localhost:3000)
		}
		return false
	}
	return values > 0
}

// testEnvFile reports an env file for the test suite (.env.test,
// .env.testing, .env.ci, .env.e2e), which projects commit with throwaway
// values.
func testEnvFile(base string) bool {
	switch strings.ToLower(base) {
	case ".env.test", ".env.testing", ".env.ci", ".env.e2e", ".env.test.local":
		return true
	}
	return false
}

// testEnvWithoutSecrets reports a test env file whose every value is a
// throwaway: a local address (postgres://postgres:postgres@localhost), a
// test-mode key (sk_test_…), or a value that says it is a dummy, test or
// example value. Any other value, or a line that is not NAME=value, is not.
func testEnvWithoutSecrets(content string) bool {
	values := 0
	for _, line := range strings.Split(content, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, value, ok := strings.Cut(strings.TrimPrefix(line, "export "), "=")
		if !ok || strings.ContainsAny(strings.TrimSpace(name), " \t") {
			return false
		}
		value = strings.Trim(strings.TrimSpace(value), `"'`)
		values++
		if !throwawayValue(value) {
			return false
		}
	}
	return values > 0
}

// throwawayValue reports a value of a test env file that unlocks nothing
// outside this machine.
func throwawayValue(v string) bool {
	if secrets.Placeholder(v) {
		return true // AKIAIOSFODNN7EXAMPLE, <your-key>, changeme, ${VAR}
	}
	low := strings.ToLower(v)
	if v == "" || len(v) < 6 || !strings.ContainsAny(low, "0123456789") && !strings.ContainsAny(low, "-_:/@.") {
		return true // short or a plain word (true, debug, development)
	}
	if i := strings.Index(low, "://"); i > 0 {
		host := low[i+3:]
		if at := strings.LastIndex(host, "@"); at >= 0 {
			host = host[at+1:]
		}
		for _, local := range []string{"localhost", "127.0.0.1", "0.0.0.0", "[::1]", "db:", "db/", "postgres:", "postgres/", "redis:", "redis/",
			"mysql:", "mysql/", "mongo:", "mongo/", "host.docker.internal"} {
			if strings.HasPrefix(host, local) {
				return true
			}
		}
		return false
	}
	for _, word := range []string{"test", "dummy", "fake", "example", "changeme", "placeholder", "localhost", "secret", "xxx", "sample"} {
		if strings.Contains(low, word) && len(v) < 40 {
			return true
		}
	}
	return !strings.ContainsAny(low, "0123456789") && len(v) < 24 || text.Digits(v)
}

func dockerConfigWithoutSecrets(content string) bool {
	var cfg struct {
		Auths map[string]map[string]any `json:"auths"`
	}
	if json.Unmarshal([]byte(content), &cfg) != nil {
		return false
	}
	for _, entry := range cfg.Auths {
		for k, v := range entry {
			switch strings.ToLower(k) {
			case "auth", "identitytoken", "registrytoken", "password":
				if s, _ := v.(string); s != "" {
					return false
				}
			}
		}
	}
	return true
}

func kubeconfigWithoutSecrets(content string) bool {
	var cfg struct {
		Users []struct {
			User map[string]any `yaml:"user"`
		} `yaml:"users"`
	}
	if yaml.Unmarshal([]byte(content), &cfg) != nil || len(cfg.Users) == 0 {
		return false
	}
	for _, u := range cfg.Users {
		for k, v := range u.User {
			switch k {
			case "token", "password", "client-key-data", "tokenFile", "token-file":
				return false
			case "auth-provider":
				// Its config caches access and refresh tokens.
				if m, ok := v.(map[string]any); ok && m["config"] != nil {
					return false
				}
			}
		}
	}
	return true
}
