package statedir

import (
	"path/filepath"
	"testing"
)

func TestDir(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"explicit", map[string]string{"HOOKGUARD_STATE_DIR": "/custom", "XDG_STATE_HOME": "/xdg", "HOME": "/h"}, "/custom"},
		{"xdg", map[string]string{"XDG_STATE_HOME": "/xdg", "HOME": "/h"}, "/xdg/hookguard"},
		{"relative xdg is ignored", map[string]string{"XDG_STATE_HOME": "rel", "HOME": "/h"}, "/h/.local/state/hookguard"},
		{"home", map[string]string{"HOME": "/h"}, "/h/.local/state/hookguard"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Dir(func(k string) string { return tt.env[k] }); got != tt.want {
				t.Fatalf("Dir = %q, want %q", got, tt.want)
			}
		})
	}
	rel := Dir(func(k string) string {
		if k == "HOOKGUARD_STATE_DIR" {
			return "rel/state"
		}
		return ""
	})
	if !filepath.IsAbs(rel) {
		t.Fatalf("a relative HOOKGUARD_STATE_DIR must be made absolute, got %q", rel)
	}
}
