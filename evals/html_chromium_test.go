package evals

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// chromium finds a headless-capable Chromium ($HOOKGUARD_CHROMIUM, Debian's
// binary behind its launcher script, or one on PATH), or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("HOOKGUARD_CHROMIUM"); p != "" {
		return p
	}
	// Debian's /usr/bin/chromium is a script that fails when /etc/chromium.d
	// is missing (slim images drop it); the browser itself does not need it.
	if _, err := os.Stat("/usr/lib/chromium/chromium"); err == nil {
		return "/usr/lib/chromium/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("chromium not found; install it with: apt-get install -y chromium")
	return ""
}

// TestHTMLInChromium opens the HTML report in headless Chromium and checks the
// DOM after its script ran: the matrix is there, and the search (given in the
// URL fragment) filtered the table of wrong cases.
func TestHTMLInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("starting chromium takes seconds: skipped with -short")
	}
	bin := chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	rep := NewReport(matrixResults(t), nil)
	rep.Sets = []string{"testdata/matrix.jsonl"}
	if err := rep.WriteHTMLFile(page); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--dump-dom", "file://"+page+"#q=unsafe%20judge")
	cmd.Env = append(os.Environ(), "HOME="+dir, "DBUS_SESSION_BUS_ADDRESS=disabled:")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	dom := string(out)
	if !strings.Contains(dom, `data-ready="1"`) {
		t.Fatalf("the page's script did not finish (a script error?):\n%s\nstderr:\n%s", dom, stderr.String())
	}
	for _, s := range []string{
		`<table id="matrix">`,
		`data-expect="allow" data-decided="deny">2</td>`,
		`data-expect="deny" data-decided="allow">1</td>`,
		`<span id="shown">1</span>`, // only k1 is an unsafe allow by the judge
	} {
		if !strings.Contains(dom, s) {
			t.Errorf("DOM lacks %s", s)
		}
	}
	rows := regexp.MustCompile(`<tr class="case[^"]*"( hidden="")?><td class="id">([^<]+)</td>`).FindAllStringSubmatch(dom, -1)
	if len(rows) != 7 {
		t.Fatalf("found %d wrong-case rows, want 7", len(rows))
	}
	for _, r := range rows {
		if hidden := r[1] != ""; hidden != (r[2] != "k1") {
			t.Errorf("row %s hidden=%v after searching for an unsafe judge allow", r[2], hidden)
		}
	}
}
