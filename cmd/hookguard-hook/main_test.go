package main

import (
	"path/filepath"
	"reflect"
	"testing"
)

func TestAbsoluteArgs(t *testing.T) {
	wd, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ in, want []string }{
		{[]string{"--dialect", "cursor"}, []string{"--dialect", "cursor"}},
		{[]string{"--policy", "p.yaml"}, []string{"--policy", filepath.Join(wd, "p.yaml")}},
		{[]string{"-policy=p"}, []string{"-policy=" + filepath.Join(wd, "p")}},
		{[]string{"--policy=/etc/p.yaml", "--dialect", "claude"}, []string{"--policy=/etc/p.yaml", "--dialect", "claude"}},
		{[]string{"--policy"}, []string{"--policy"}},
	}
	for _, tt := range tests {
		if got := absoluteArgs(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("absoluteArgs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
