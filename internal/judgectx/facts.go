package judgectx

import (
	"bufio"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Facts are what a reviewer knows about where a command runs.
type Facts struct {
	// Branch is the checked-out git branch ("" when detached or unknown);
	// Protected reports it is one of the policy's protected branches.
	Branch    string
	Protected bool
	// RemoteHost is the host of the origin remote ("github.com").
	RemoteHost string
	// InWorkspace reports whether cwd is inside a workspace root.
	InWorkspace bool
}

// String renders the facts for the judge, one per line.
func (f Facts) String() string {
	var b strings.Builder
	if f.Branch != "" {
		b.WriteString("git branch: " + f.Branch)
		if f.Protected {
			b.WriteString(" (protected)")
		}
		b.WriteByte('\n')
	}
	if f.RemoteHost != "" {
		b.WriteString("origin remote host: " + f.RemoteHost + "\n")
	}
	if f.InWorkspace {
		b.WriteString("the working directory is inside a workspace root\n")
	} else {
		b.WriteString("the working directory is outside every workspace root\n")
	}
	return b.String()
}

// WorkspaceFacts reads the git branch and origin of the repository holding
// cwd (searched up to the workspace root), without running git.
func WorkspaceFacts(cwd string, roots, protected []string) Facts {
	var f Facts
	root := ""
	for _, r := range roots {
		r = filepath.Clean(r)
		if cwd == r || strings.HasPrefix(cwd, r+string(filepath.Separator)) {
			f.InWorkspace, root = true, r
			break
		}
	}
	if root == "" {
		return f
	}
	gitDir := ""
	for d := filepath.Clean(cwd); ; d = filepath.Dir(d) {
		p := filepath.Join(d, ".git")
		if fi, err := os.Stat(p); err == nil {
			if fi.IsDir() {
				gitDir = p
			} else if b, err := os.ReadFile(p); err == nil && len(b) < 4096 {
				// A worktree or submodule: "gitdir: …".
				if g, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: "); ok {
					if !filepath.IsAbs(g) {
						g = filepath.Join(d, g)
					}
					gitDir = g
				}
			}
			break
		}
		if d == root || d == filepath.Dir(d) {
			break
		}
	}
	if gitDir == "" {
		return f
	}
	if b, err := os.ReadFile(filepath.Join(gitDir, "HEAD")); err == nil && len(b) < 4096 {
		if ref, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "ref: refs/heads/"); ok {
			f.Branch = ref
			f.Protected = slices.Contains(protected, ref)
		}
	}
	config := filepath.Join(gitDir, "config")
	if common, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		config = filepath.Join(gitDir, strings.TrimSpace(string(common)), "config")
	}
	f.RemoteHost = originHost(config)
	return f
}

// originHost reads the url of [remote "origin"] and returns its host.
func originHost(config string) string {
	fh, err := os.Open(config)
	if err != nil {
		return ""
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	in := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			in = line == `[remote "origin"]`
			continue
		}
		if !in {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) != "url" {
			continue
		}
		v = strings.TrimSpace(v)
		if u, err := url.Parse(v); err == nil && u.Host != "" {
			return u.Hostname()
		}
		// scp-like: git@github.com:org/repo.git
		if at := strings.IndexByte(v, '@'); at >= 0 {
			v = v[at+1:]
		}
		host, _, _ := strings.Cut(v, ":")
		return host
	}
	return ""
}
