package evals

import "testing"

func TestWorkspaceHome(t *testing.T) {
	for _, c := range []struct {
		roots []string
		want  string
	}{
		{[]string{"/home/dana/src/shop"}, "/home/dana"},
		{[]string{"/Users/lea/code/app"}, "/Users/lea"},
		{[]string{"/root/work"}, "/root"},
		{[]string{"/Users/Shared/app"}, "/fallback"},
		{[]string{"/srv/app"}, "/fallback"},
		{nil, "/fallback"},
	} {
		if got := WorkspaceHome(c.roots, "/fallback"); got != c.want {
			t.Errorf("WorkspaceHome(%q) = %q, want %q", c.roots, got, c.want)
		}
	}
}
