module github.com/hookguard/hookguard

go 1.26.0

require (
	github.com/dlclark/regexp2/v2 v2.13.0
	github.com/hashicorp/golang-lru/v2 v2.0.7
	github.com/sashabaranov/go-openai v1.43.0
	github.com/sony/gobreaker/v2 v2.4.0
	go.etcd.io/bbolt v1.5.0
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/sys v0.50.0
	golang.org/x/term v0.48.0
	golang.org/x/text v0.44.0
	mvdan.cc/sh/v3 v3.14.1
)
