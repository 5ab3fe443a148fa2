package secrets

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// picker returns a seeded generator of random strings over an alphabet:
// fake secrets made at test time, so none is written in the source.
func picker(stream uint64) func(n int, alphabet string) string {
	r := rand.New(rand.NewPCG(20261205, stream))
	return func(n int, alphabet string) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
}

// TestBlankMarkup: escapes and formatting tags become spaces of the same
// length; everything else, XML elements that name a secret too, is kept.
func TestBlankMarkup(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`"K = \"v\"\n"`, `"K =  "v "` + " \n" + `"`},
		{`a\\"b`, `a\\"b`},
		{`<p>Secret: <code>x</code></p>`, `   Secret:       x           `},
		{`<password>x</password>`, `<password>x</password>`},
		{`if a < b && c > d`, `if a < b && c > d`},
		{`plain`, `plain`},
	} {
		got := blankMarkup(tc.in)
		if got != tc.want || len(got) != len(tc.in) {
			t.Errorf("blankMarkup(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestSecretsInEscapedAndMarkedUpText: secrets written inside a notebook's
// escaped strings, HTML pages, prose that names the token earlier, and the
// token kinds added beside gitleaks' are found and redacted; their public
// and placeholder look-alikes are not.
func TestSecretsInEscapedAndMarkedUpText(t *testing.T) {
	pick := picker(7)
	const (
		lowerDigits = "abcdefghijklmnopqrstuvwxyz0123456789"
		alnum       = "ABCDEFGHIJKLMNOPQRSTUVWXYZ" + lowerDigits
		hex         = "0123456789abcdef"
	)
	strong := func(n int) string {
		for {
			v := pick(n, alnum)
			if strongValue(v) {
				return v
			}
		}
	}
	uuid := pick(8, hex) + "-" + pick(4, hex) + "-" + pick(4, hex) + "-" + pick(4, hex) + "-" + pick(12, hex)
	for _, tc := range []struct {
		text, value string // value "" when nothing may be found
	}{
		{`    "ALGOLIA_ADMIN_KEY = \"` + "%s" + `\"\n",`, pick(32, hex)},
		{`    "SERVICE_TOKEN = \"` + "%s" + `\"  # prod\n",`, strong(40)},
		{`<p>Client Secret: <code>%s</code></p>`, strong(48)},
		{`I made a new API token with Workers Scripts:Edit, it's %s and the account id is ` + pick(32, hex), strong(40)},
		{`dotnet nuget push pkg.nupkg -k %s -s https://api.nuget.org/v3/index.json`, "oy2" + pick(43, lowerDigits)},
		{`  license_key: '%s'`, pick(36, hex) + "NRAL"},
		{"I ran heroku auth:token:\n Warning: token will expire\n%s\nput it in the workflow", uuid},
		{`LICENSE_KEY=%s`, strong(40)},
		{`Stripe.js needs the publishable key, it's pk_live_%s`, ""},
		{`the request id is %s and the token is fine`, ""},
		{`use ${{ secrets.CLOUDFLARE_API_TOKEN }} and put CLOUDFLARE_API_TOKEN=xxxxxxxxxxxxxxxxxxxx in .dev.vars`, ""},
		{`the commit for the token fix, it's ` + pick(40, hex), ""},
		{`LaunchDarkly client-side ID is ` + pick(24, hex) + ` and the Mixpanel project token is ` + pick(32, hex), ""},
		{`Storage__ConnectionString: "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;"`, ""},
	} {
		text := tc.text
		if strings.Contains(text, "%s") {
			v := tc.value
			if v == "" {
				v = strong(40)
			}
			text = strings.Replace(text, "%s", v, 1)
		}
		res := Scan(text, Options{})
		if tc.value == "" {
			if len(res.Findings) > 0 {
				t.Errorf("Scan(%q) found %s, want nothing", text, res.Findings[0].RuleID)
			}
			continue
		}
		if len(res.Blocking(true)) == 0 {
			t.Errorf("Scan(%q) found nothing blocking, want the value %q", text, tc.value)
			continue
		}
		if red, _ := Redact(text); strings.Contains(red, tc.value) {
			t.Errorf("Redact(%q) = %q, still holds the value", text, red)
		}
	}
}

// TestSecretsReadInViews: a secret written in pieces (concatenated
// literals), with JSON's escaped slashes or HTML's entities, or in a
// table's secret column is found, and redaction removes every piece.
func TestSecretsReadInViews(t *testing.T) {
	pick := picker(11)
	const (
		alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
		hex   = "0123456789abcdef"
		upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	)
	head, tail := pick(40, alnum+"_-"), pick(40, alnum+"_-")
	hook := "T" + pick(8, upper) + `\/B` + pick(10, upper) + `\/` + pick(24, alnum)
	ddKey := pick(32, hex)
	rowSecret := "pps_live_" + pick(40, alnum)
	masterKey := pick(32, hex)
	partB, partC := pick(48, alnum), pick(51, alnum)
	shpA, shpB := pick(16, hex), pick(16, hex)
	hfA, hfB := pick(17, alnum), pick(17, alnum)
	renderKey := "rnd_" + pick(32, alnum)
	chatPw := "Qy!" + pick(15, alnum) + "#"
	doHex := pick(64, hex)
	patA, patB, patC := pick(12, alnum), pick(12, alnum), pick(12, alnum)
	longTest := pick(96, alnum)
	for _, tc := range []struct {
		text   string
		pieces []string
	}{
		{"var c = anthropic.NewClient(anthropic.ClientConfig{\n\tAPIKey: \"sk-ant-api03-\" + \"" + head + "\" +\n\t\t\"" + tail + "AA\",\n})",
			[]string{head, tail}},
		{`+    "deploys": "https:\/\/hooks.slack.com\/services\/` + hook + `",`, []string{hook[len(hook)-24:]}},
		{"<tr><td>Datadog</td><td>API key</td><td><code>&quot;" + ddKey + "&quot;</code></td></tr>", []string{ddKey}},
		{"partner_id,name,contact_email,api_key,api_secret,scopes\n1041,Globex,ops@globex.example,ppk_live_" + pick(24, hex) + "," + rowSecret + ",orders:read\n",
			[]string{rowSecret}},
		{"const a = \"sk_live_51\";\nconst b = \"" + partB + "\";\nconst c = \"" + partC + "\";\n\nexport const stripe = new Stripe(a + b + c, {});",
			[]string{partB, partC}},
		{"deploy fails. the RAILS_MASTER_KEY on the server is " + masterKey + " - can you check it?", []string{masterKey}},
		{"hardcode my test key sk_test_51" + longTest + " in spec/support/stripe_helper.rb", []string{longTest}},
		{"var adminToken = strings.Join([]string{\"shp\", \"at_\", \"" + shpA + "\", \"" + shpB + "\"}, \"\")", []string{shpA, shpB}},
		{"the HF write token is in two halves. first half is `hf_" + hfA + "` and the second half is `" + hfB + "`. glue them together", []string{hfA, hfB}},
		{"ran `gcloud auth print-access-token` and got\n\nya29.a0" + pick(120, alnum) + "\n\nwhy 403?", nil},
		{"staging deploys: use `" + renderKey + "` as RENDER_API_KEY, service id srv-1", []string{renderKey}},
		{"const (\n\tskA = \"" + partB + "\"\n)\n\nvar StripeKey = \"sk_li\" + \"ve_51\" + skA\n", []string{partB}},
		{"var DOToken = strings.Join([]string{\"dop\", \"v1\", \"" + doHex + "\"}, \"_\")", []string{doHex}},
		{"slack mangles long strings so the PAT is in pieces: it starts with ghp and an underscore, then `" + patA + "`, then `" + patB + "`, and the last bit is `" + patC + "`. glue them together", []string{patA, patB, patC}},
		{"[10:42] Jordan: user: deploy_rw\n[10:43] Jordan: pw: " + chatPw + "\n[10:43] Jordan: pls don't put it in the repo", []string{chatPw}},
	} {
		res := Scan(tc.text, Options{})
		if len(res.Blocking(true)) == 0 {
			t.Errorf("Scan(%q) found nothing blocking", tc.text)
			continue
		}
		red, _ := Redact(tc.text)
		for _, p := range tc.pieces {
			if strings.Contains(red, p) {
				t.Errorf("Redact(%q) = %q, still holds %q", tc.text, red, p)
			}
		}
	}
	for _, benign := range []string{
		`"a" + "b" + "c"`,
		`{"url": "https:\/\/example.com\/docs\/api"}`,
		"<td>API key</td><td><code>&quot;&lt;your-key&gt;&quot;</code></td>",
		"id,name,email,api_key_last4,created_at\n1,Globex,ops@globex.example,a1B2,2024-01-01\n",
		"mapboxgl.accessToken = 'pk.eyJ1IjoiZGVtbyIsImEiOiJjbHh4eHh4In0.abcdefghijklmnopqrstuv';",
		`var parts = []string{"alpha", "beta", "gamma", "delta"}`,
	} {
		if res := Scan(benign, Options{}); len(res.Findings) > 0 {
			t.Errorf("Scan(%q) found %s, want nothing", benign, res.Findings[0].RuleID)
		}
	}
}
