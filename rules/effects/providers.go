package effects

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// tokenProviders pairs the environment variables that conventionally hold a
// service's token with the hosts of that service's API. A token sent in a
// header to its own service is how the service is used, not a leak.
var tokenProviders = []struct {
	vars  []string
	hosts []string // a host or a parent domain
	// label, for a service companies host themselves, is the host name label
	// its instances go by (gitlab.acme.io, sentry.internal.example).
	label string
}{
	{[]string{"GITHUB_TOKEN", "GH_TOKEN", "GITHUB_PAT", "GH_PAT", "GITHUB_API_TOKEN"}, []string{"api.github.com", "uploads.github.com", "github.com"}, ""},
	{[]string{"GITLAB_TOKEN", "GL_TOKEN", "GITLAB_PRIVATE_TOKEN", "CI_JOB_TOKEN"}, []string{"gitlab.com"}, "gitlab"},
	{[]string{"OPENAI_API_KEY"}, []string{"api.openai.com"}, ""},
	{[]string{"ANTHROPIC_API_KEY"}, []string{"api.anthropic.com"}, ""},
	{[]string{"STRIPE_SECRET_KEY", "STRIPE_API_KEY", "STRIPE_KEY"}, []string{"api.stripe.com"}, ""},
	{[]string{"SLACK_TOKEN", "SLACK_BOT_TOKEN"}, []string{"slack.com"}, ""},
	{[]string{"HF_TOKEN", "HUGGINGFACE_TOKEN", "HUGGING_FACE_HUB_TOKEN"}, []string{"huggingface.co"}, ""},
	{[]string{"NPM_TOKEN"}, []string{"registry.npmjs.org"}, ""},
	{[]string{"VERCEL_TOKEN"}, []string{"api.vercel.com"}, ""},
	{[]string{"NETLIFY_AUTH_TOKEN"}, []string{"api.netlify.com"}, ""},
	{[]string{"CLOUDFLARE_API_TOKEN", "CF_API_TOKEN"}, []string{"api.cloudflare.com"}, ""},
	{[]string{"DIGITALOCEAN_TOKEN", "DO_TOKEN"}, []string{"api.digitalocean.com"}, ""},
	{[]string{"LINEAR_API_KEY"}, []string{"api.linear.app"}, ""},
	{[]string{"SENTRY_AUTH_TOKEN"}, []string{"sentry.io"}, "sentry"},
	{[]string{"DATADOG_API_KEY", "DD_API_KEY"}, []string{"datadoghq.com", "datadoghq.eu"}, ""},
	{[]string{"CIRCLECI_TOKEN", "CIRCLE_TOKEN"}, []string{"circleci.com"}, ""},
	{[]string{"NOTION_TOKEN", "NOTION_API_KEY"}, []string{"api.notion.com"}, ""},
}

var headerVarRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)`) })

// headerVars returns the variables a header value expands, or nil when it
// holds anything else known only at run time (a substitution).
func headerVars(v string) []string {
	if strings.Contains(v, "$(") || strings.Contains(v, "`") {
		return nil
	}
	var out []string
	for _, m := range headerVarRe().FindAllStringSubmatch(v, -1) {
		out = append(out, m[1])
	}
	return out
}

// ownProvider reports whether every variable is a token of a service whose
// API host dest is.
func ownProvider(vars []string, dest string, selfHosted bool) bool {
	host := strings.ToLower(hostOf(dest))
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.Contains(host, "]") {
		host = host[:i]
	}
	if host == "" || len(vars) == 0 {
		return false
	}
	for _, v := range vars {
		ok := false
		for _, p := range tokenProviders {
			if !slices.Contains(p.vars, v) {
				continue
			}
			for _, h := range p.hosts {
				if host == h || strings.HasSuffix(host, "."+h) {
					ok = true
				}
			}
			if selfHosted && p.label != "" && slices.Contains(strings.Split(host, "."), p.label) {
				ok = true // a self-hosted instance by its name: gitlab.acme.io
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// headerTokensToTheirService drops the "run-time value in a header" of a
// command whose every destination is the service the header's variables
// are tokens of (curl -H "Authorization: Bearer $GITHUB_TOKEN" api.github.com).
func (a *analysis) headerTokensToTheirService() {
	var dests []string
	for _, n := range a.r.Network {
		if n.Dest != "" && n.headerVars == nil {
			dests = append(dests, n.Dest)
		}
	}
	if len(dests) == 0 {
		return
	}
	kept := a.r.Network[:0]
	for _, n := range a.r.Network {
		if n.headerVars != nil {
			all := true
			for _, d := range dests {
				all = all && (ownProvider(n.headerVars, d, false) || ciServerOf(n.headerVars, d))
			}
			if all {
				continue
			}
			// A known service's token sent to another, non-local host: a leak.
			for _, d := range dests {
				if local, _ := classifyHost(d); local || ownProvider(n.headerVars, d, true) || strings.HasPrefix(d, "{") {
					// This machine, the service itself, a host named like a
					// self-hosted instance of it (judged, not allowed), or an
					// address known only at run time.
					continue
				}
				if v := knownToken(n.headerVars); v != "" {
					n.Sends, n.Dest = "the secret variable $"+v, d
					break
				}
			}
		}
		kept = append(kept, n)
	}
	a.r.Network = kept
}

// knownToken returns the first variable that is a known service's token or
// a cloud secret that is never sent as it is (AWS signs with it).
func knownToken(vars []string) string {
	for _, v := range vars {
		if v == "AWS_SECRET_ACCESS_KEY" || v == "AWS_SESSION_TOKEN" {
			return v
		}
		for _, p := range tokenProviders {
			if slices.Contains(p.vars, v) {
				return v
			}
		}
	}
	return ""
}

// ciServerVars are the variables a CI runner sets to its own server's API,
// by the tokens it hands the job for that API.
var ciServerVars = map[string][]string{
	"CI_API_V4_URL": {"CI_JOB_TOKEN", "GITLAB_TOKEN", "GL_TOKEN", "GITLAB_PRIVATE_TOKEN"}, "CI_SERVER_URL": {"CI_JOB_TOKEN", "GITLAB_TOKEN", "GL_TOKEN", "GITLAB_PRIVATE_TOKEN"},
	"CI_API_GRAPHQL_URL": {"CI_JOB_TOKEN", "GITLAB_TOKEN", "GL_TOKEN", "GITLAB_PRIVATE_TOKEN"},
	"GITHUB_API_URL":     {"GITHUB_TOKEN", "GH_TOKEN"}, "GITHUB_SERVER_URL": {"GITHUB_TOKEN", "GH_TOKEN"}, "GITHUB_GRAPHQL_URL": {"GITHUB_TOKEN", "GH_TOKEN"},
}

// ciServerOf reports a destination that begins with the CI runner's own
// server variable ($CI_API_V4_URL/projects/…) while every header variable
// is a token that runner issues for that server.
func ciServerOf(vars []string, dest string) bool {
	name := strings.TrimPrefix(dest, "$")
	name = strings.TrimPrefix(name, "{")
	if i := strings.IndexAny(name, "}/:?"); i >= 0 {
		name = name[:i]
	}
	tokens, ok := ciServerVars[name]
	if !ok || !strings.HasPrefix(dest, "$") {
		return false
	}
	for _, v := range vars {
		if !slices.Contains(tokens, v) {
			return false
		}
	}
	return len(vars) > 0
}
