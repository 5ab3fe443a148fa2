package rules

import (
	"encoding/json"
	"path"
	"strings"

	"go.yaml.in/yaml/v3"
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
	}
	return false
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
