module github.com/hookguard/hookguard/internal/tools/bip39gen

go 1.26.0

require github.com/cosmos/go-bip39 v1.0.0

require golang.org/x/crypto v0.0.0-20200728195943-123391ffb6de // indirect
