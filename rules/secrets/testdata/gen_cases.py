#!/usr/bin/env python3
"""Writes cases.json: labeled texts for the secret detector's tests.

Random values come from a fixed seed so the file is reproducible; none of them
is a real credential. Run: python3 rules/secrets/testdata/gen_cases.py
"""
import base64
import json
import os
import random
import string
import urllib.parse

rng = random.Random(20261203)
A62 = string.ascii_letters + string.digits
HEX = "0123456789abcdef"


def r(n, alphabet=A62):
    return "".join(rng.choice(alphabet) for _ in range(n))


def b64body(n):
    return "\n".join(r(64, A62 + "+/") for _ in range(n))


rsa_key = "-----BEGIN RSA PRIVATE KEY-----\n" + b64body(6) + "\n-----END RSA PRIVATE KEY-----"
ossh_key = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n" + b64body(4) + "\n-----END OPENSSH PRIVATE KEY-----"
ec_key = "-----BEGIN EC PRIVATE KEY-----\n" + b64body(3) + "\n-----END EC PRIVATE KEY-----"
pgp_key = "-----BEGIN PGP PRIVATE KEY BLOCK-----\nComment: exported\n\n" + b64body(5) + "\n-----END PGP PRIVATE KEY BLOCK-----"
enc_key = "-----BEGIN ENCRYPTED PRIVATE KEY-----\n" + b64body(4) + "\n-----END ENCRYPTED PRIVATE KEY-----"
pkcs8_cut = "-----BEGIN PRIVATE KEY-----\n" + r(64, A62 + "+/") + "\n" + r(40, A62 + "+/")
ghp = "ghp_" + r(36)
jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + base64.urlsafe_b64encode(json.dumps({"sub": r(12), "role": "service_role", "iat": 1764700000}).encode()).decode().rstrip("=") + "." + r(43, A62 + "-_")

# (text, secret expected, kind expected or None, blocking expected)
pos = [
    ("deploy with AKIA" + r(16, string.ascii_uppercase + "234567") + " please", "aws-access-token"),
    ("aws_secret_access_key = " + r(40, A62 + "/+"), None),
    ("my token is " + ghp, "github-pat"),
    ("use github_pat_" + r(22) + "_" + r(59) + " for the API", "github-fine-grained-pat"),
    ("oauth gho_" + r(36), "github-oauth"),
    ("GITLAB_TOKEN=glpat-" + r(20, A62 + "-_"), "gitlab-pat"),
    ("bot xoxb-" + r(11, string.digits) + "-" + r(12, string.digits) + "-" + r(24), "slack-bot-token"),
    ("post to https://hooks.slack.com/services/T" + r(8, string.ascii_uppercase + string.digits) + "/B" + r(10, string.ascii_uppercase + string.digits) + "/" + r(24), "slack-webhook-url"),
    ("STRIPE_SECRET_KEY=sk_live_" + r(24) + " in prod", "stripe-access-token"),
    ("OPENAI_API_KEY=sk-proj-" + r(74, A62 + "_-") + "T3BlbkFJ" + r(74, A62 + "_-"), None),
    ("key sk-ant-api03-" + r(93, A62 + "_-") + "AA", "anthropic-api-key"),
    ("HF_TOKEN=hf_" + r(34, string.ascii_letters), None),
    ("//registry.npmjs.org/:_authToken=npm_" + r(36), "npm-access-token"),
    ("password = pypi-AgEIcHlwaS5vcmc" + r(70, A62 + "-_"), "pypi-upload-token"),
    ("SENDGRID=SG." + r(22, A62 + "-_") + "." + r(43, A62 + "-_"), "sendgrid-api-token"),
    ("maps key AIza" + r(35, A62 + "-_"), "gcp-api-key"),
    ("DefaultEndpointsProtocol=https;AccountName=shop;AccountKey=" + r(86, A62 + "+/") + "==;EndpointSuffix=core.windows.net", None),
    ("DIGITALOCEAN_TOKEN=dop_v1_" + r(64, HEX), "digitalocean-pat"),
    ("shopify shpat_" + r(32, HEX), "shopify-access-token"),
    ("VAULT_TOKEN=hvs." + r(90, A62 + "_-"), None),
    ("connect to postgres://app:" + r(14) + "@prod-db.internal:5432/shop", "connection-string-password"),
    ("MONGO_URL=mongodb+srv://svc:" + r(16) + "@cluster0.ab1cd.mongodb.net/app", "connection-string-password"),
    ("redis://:" + r(20) + "@cache.prod.example.net:6379/0", "connection-string-password"),
    ("amqps://worker:" + r(18) + "@mq.example.org/vhost", "connection-string-password"),
    ("jdbc:sqlserver://db.corp:1433;databaseName=erp;user=sa;password=" + r(12) + "!", "connection-string-password"),
    ("Server=tcp:sql.corp,1433;Database=erp;User ID=app;Pwd=" + r(14) + ";", "connection-string-password"),
    (rsa_key, "private-key"),
    (ossh_key, "private-key"),
    (ec_key, "private-key"),
    (pgp_key, "private-key"),
    (enc_key, "private-key"),
    ("here is the start of it: " + pkcs8_cut, "private-key"),
    (json.dumps({"type": "service_account", "private_key": rsa_key.replace("RSA ", "")}), "private-key"),
    ("DB_PASSWORD=" + r(16) + "\nREDIS_URL=redis://cache:6379\nDEBUG=false\n", None),
    ("export STRIPE_WEBHOOK_SECRET=" + r(30), None),
    ("deploy --token " + r(32) + " --env prod", None),
    ("psql --password=" + r(12) + "9 -h db", None),
    ("mysql -u root -p" + r(10) + "7 shop", "mysql-password-option"),
    ('curl -H "Authorization: Bearer ' + r(40, A62 + "._-") + '" https://api.example.com', None),
    ('curl -H "X-API-Key: ' + r(32, HEX) + '" https://api.example.com/v1', None),
    ("the prod database password is Xk9#" + r(8) + " can you connect", None),
    ("Authorization: token " + ghp, "github-pat"),
    ("SUPABASE_SERVICE_ROLE_KEY=" + jwt, None),
    ('{"password": "' + r(14) + '9!"}', None),
    ("spring.datasource.password=" + r(10) + "Pw1!", None),
    ("db:\n  password: " + r(16) + "\n  host: db.internal\n", None),
    ("<?php\ndefine( 'DB_PASSWORD', '" + r(18) + "' );\n", "config-secret"),
    # hidden forms
    ("my token is " + ghp[:6] + "\u200b" + ghp[6:], "github-pat"),
    ("token: " + base64.b64encode(ghp.encode()).decode(), "github-pat"),
    ("key=" + urllib.parse.quote(rsa_key, safe=""), "private-key"),
    ("hex " + ghp.encode().hex(), "github-pat"),
    ("token " + "".join(chr(ord(c) + 0xFEE0) for c in ghp), "github-pat"),  # full-width forms
    ("ﬁle ① token " + ghp[:10] + "\u00ad" + ghp[10:], "github-pat"),  # a ligature, a circled digit, a soft hyphen
    ("我的令牌是 " + ghp + " 请保密", "github-pat"),  # CJK around it, nothing to fold
]

neg = [
    "the docs use AKIAIOSFODNN7EXAMPLE and wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "OPENAI_API_KEY=sk-...a1B2",
    "STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx",
    "set OPENAI_API_KEY=<your-api-key>",
    "GITHUB_TOKEN=YOUR_TOKEN_HERE",
    "DB_PASSWORD=changeme",
    "STRIPE_KEY=${STRIPE_KEY}",
    "NPM_TOKEN: ${{ secrets.NPM_TOKEN }}",
    "token=$(cat ~/.config/token)",
    "ghp_************************************",
    "-----BEGIN PUBLIC KEY-----\n" + b64body(3) + "\n-----END PUBLIC KEY-----",
    "-----BEGIN CERTIFICATE-----\n" + b64body(6) + "\n-----END CERTIFICATE-----",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + r(43) + " dev@laptop",
    "DATABASE_URL=postgres://user:password@localhost:5432/app",
    "postgres://${DB_USER}:${DB_PASS}@db:5432/app",
    "request id 3f2b8c1e-4d5a-4e6f-9a8b-7c6d5e4f3a2b and commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
    '"integrity": "sha512-' + r(86, A62 + "+/") + '=="',
    "docker login --password-stdin < token.txt",
    "deploy --token-file ./secrets/token.txt",
    "API_KEY=$API_KEY npm start",
    "TOKEN_TTL=3600",
    "max_tokens: 4096",
    "the password field is required",
    "rotate the token every 90 days",
    "how do I rotate a leaked AWS key?",
    'password = os.environ["DB_PASSWORD"]',
    "const apiKey = process.env.OPENAI_API_KEY;",
    'curl -H "Authorization: Bearer $TOKEN" https://api.example.com',
    "Authorization: Bearer <token>",
    "jwt.io shows eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    "github.com/spf13/cobra v1.8.0 h1:7aJaZx1B85qltLMc546zn58BxxfZdR/W22ej9CFoEf0=",
    "publishable key pk_live_" + r(24) + " goes in the browser bundle",
    "secretName: db-credentials",
    "tokenizer: cl100k_base",
    "keyboard shortcut: ctrl+shift+p",
    'const passwordField = "password";',
    "Use `kubectl create secret generic db --from-literal=password=$DB_PASSWORD`",
    "the header is Authorization: Basic followed by base64 of user:pass",
    "our OpenAI keys start with sk-proj- and our GitHub tokens with ghp_",
]

# A Stripe test-mode key reaches sandbox data only: found and redacted, not blocking.
# A Stripe test-mode key blocks where positional secrets do (prompts, reads, tool inputs).
pos.append(("STRIPE_KEY=sk_test_" + r(24), "stripe-access-token"))
pos.append(("Twilio SID AC" + r(32, HEX) + " auth token " + r(32, HEX), "twilio-auth-token"))
pos.append(("download the model with my HF token hf_" + r(34), "huggingface-token"))
neg += [
    "replicaCount: 3\ndb:\n  existingSecret: search-db\n  passwordKey: password\n",
    '{"key": "rate:limit:user:4411"}',
    "Our Stripe publishable key is pk_live_" + r(40) + " - wire it into the checkout page.",
    "My public key is ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + r(43) + " lea@mbp",
    "kind: SealedSecret\nspec:\n  encryptedData:\n    password: AgBy3i4OJSWK+" + r(120, A62 + "+/") + "\n",
    "the primary key is user_id and the sort key is created_at",
]
pos.append(("<settings>\n  <servers>\n    <server>\n      <id>nexus-releases</id>\n      <username>deploy</username>\n      <password>" + r(18, A62 + "*#+") + "</password>\n    </server>\n  </servers>\n</settings>\n", "config-secret"))
neg += [
    "def make_client():\n    api_key = os.environ[\"OPENAI_API_KEY\"]\n    return OpenAI(api_key=api_key)\n",
    "client = Client(token=settings.api_token, timeout=30)",
    "<server>\n  <id>nexus</id>\n  <password>${env.NEXUS_PASSWORD}</password>\n</server>",
]
test_only = [
    ("DATABASE_URL=postgres://app:" + r(12) + "@localhost:5432/app", "connection-string-password"),
]

# Shape-only secrets and kinds added with the round-6 dev data: taken after
# every value above so that those stay as they were.
bip39 = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bip39_gen.go")).read()
bip39 = " ".join(part.split('"')[1] for part in bip39.split("const bip39Words = ", 1)[1].split("\n") if '"' in part).split()
assert len(bip39) == 2048, len(bip39)
phrase = " ".join(rng.choice(bip39) for _ in range(12))
keypair = [rng.randrange(256) for _ in range(64)]
pos += [
    ("wallet mnemonic: \"" + phrase + "\"", "wallet-recovery-phrase"),
    ("restore it from\n1. " + "\n".join(f"{i + 2}. {w}" for i, w in enumerate(" ".join(rng.choice(bip39) for _ in range(24)).split()))[3:], "wallet-recovery-phrase"),
    (json.dumps(keypair), "private-key-byte-array"),
    ("bot token " + str(rng.randrange(10**9, 10**10)) + ":AA" + r(33, A62 + "_-") + " chat -1002700758565", "telegram-bot-token"),
    ("the endpoint secret is whsec_" + r(32), "stripe-webhook-secret"),
    (json.dumps({"keys": [{"kty": "EC", "crv": "P-256", "x": r(43, A62 + "-_"), "y": r(43, A62 + "-_"), "d": r(43, A62 + "-_")}]}, indent=2), "jwk-private-key"),
]
neg += [
    "please review the code and make sure every test passes before we merge this branch tomorrow",
    "abandon ability able about above absent absorb abstract absurd abuse access accident are the first twelve words of the list",
    "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
    json.dumps(list(range(64))),
    json.dumps([0] * 64),
    json.dumps({"keys": [{"kty": "EC", "crv": "P-256", "x": r(43, A62 + "-_"), "y": r(43, A62 + "-_")}]}),
    "TELEGRAM_BOT_TOKEN=123456789:AAxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "whsec_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
]

import hashlib
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def b58check(payload):
    raw = payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    n, out = int.from_bytes(raw, "big"), ""
    while n:
        n, rem = divmod(n, 58)
        out = B58[rem] + out
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + out


wif_key = bytes(rng.randrange(256) for _ in range(32))
pos += [
    ("electrum won't sweep this, is it compressed WIF? " + b58check(b"\x80" + wif_key + b"\x01"), "bitcoin-private-key"),
    ("old paper wallet: " + b58check(b"\x80" + wif_key), "bitcoin-private-key"),
    ("xpriv for the hot wallet " + b58check(bytes.fromhex("0488ADE4") + bytes(rng.randrange(256) for _ in range(74))), "bitcoin-private-key"),
    ("networks: {\n  mainnet: {\n    url: 'https://rpc.example.org',\n    accounts: ['0x" + r(64, HEX) + "'],\n  },\n}", "ethereum-private-key"),
    ("const wallet = new ethers.Wallet('0x" + r(64, HEX) + "', provider)", "ethereum-private-key"),
    ("is this compressed WIF? L" + "".join(rng.choice(B58) for _ in range(51)), "bitcoin-private-key"),
    ("why 401?\ncurl -X POST https://api.twilio.com/2010-04-01/Accounts/AC" + r(32, HEX) + "/Messages.json \\\n  -u AC" + r(32, HEX) + ":" + r(32, HEX), "twilio-auth-token"),
    ("discord.com token \"" + "N" + r(23, A62) + "." + r(6, A62) + "." + r(38, A62 + "_-") + "\"", "discord-user-token"),
    ("run vault login s." + r(24) + " first", "vault-service-token"),
    ("curl https://api.stripe.com/v1/refunds -u sk_live_" + r(99) + ": -d charge=ch_1", "stripe-secret-key"),
    ("add the header X-Service-Key: isk_" + r(40) + " to the client", "authorization-header"),
]
neg += [
    "tx 0x" + r(64, HEX) + " reverted with out of gas",
    "commit " + r(40, HEX) + " and block hash 0x" + r(64, HEX),
    "the order id is " + "".join(rng.choice(B58) for _ in range(52)),
    "accounts: [process.env.DEPLOYER_KEY]",
    '{"results": {"tests/fixtures/payload.json": [{"type": "Hex High Entropy String", "hashed_secret": "' + r(40, HEX) + '", "line_number": 12}]}}',
    "curl -u admin:admin http://localhost:8080/api",
    "curl -u \"$USER:$TOKEN\" https://api.example.com",
]
pos += [
    ("log into vault with hvs." + r(86, A62 + "_-") + " and list the kv paths", "vault-token"),
    ("VAULT_TOKEN=hvb." + r(60, A62), None),
]
neg += [
    "export VAULT_TOKEN=hvs.XXXXXXXXXXXXXXXXXXXXXXXXXXXX",
]
pos += [
    ("docker login fails: echo dckr_pat_" + r(27, A62 + "_-") + " | docker login -u ci-bot --password-stdin", "docker-hub-token"),
    ("firebase server key: AAAA" + r(7, A62 + "_-") + ":APA91b" + r(134, A62 + "_-"), "firebase-cloud-messaging-key"),
]
neg += [
    "set DOCKERHUB_TOKEN=dckr_pat_XXXXXXXXXXXXXXXXXXXXXXXX in the CI settings",
]
pos += [
    ("twilio auth token is " + " ".join(r(4, HEX) for _ in range(8)) + " (spaced out so the scanner doesn't eat it)", "spaced-token"),
]
neg += [
    "the signing key fingerprint is " + " ".join(r(4, HEX).upper() for _ in range(10)),
    "api key id 123e4567-e89b-12d3-a456-426614174000 belongs to the staging project",
    "fingerprint of the host key is SHA256:" + r(43, A62 + "+/") + " - add it to the known_hosts step in CI",
    "the host key is 3f:" + ":".join(r(2, HEX) for _ in range(15)) + " (MD5)",
]
pos += [
    ("send the OTP via Twilio. Account SID AC" + r(32, HEX) + " auth token " + r(32, HEX), "twilio-auth-token"),
    ("here is my kubeconfig:\nusers:\n- name: admin\n  user:\n    client-certificate-data: " + r(80, A62) + "\n    client-key-data: " + r(120, A62 + "+/") + "=\n", "kubeconfig-client-key"),
    ("CI fails at docker login -u acmeci -p " + r(20, A62) + " registry.acme.io, can you put that in the workflow?", "registry-login-password"),
]
neg += [
    "docker login -u acmeci -p $REGISTRY_PASSWORD registry.acme.io",
    "echo \"$CR_PAT\" | docker login ghcr.io -u octocat --password-stdin",
    "the account SID is AC" + r(32, HEX) + " (no token here)",
]
neg += [
    "http :8000/api/items/ Authorization:'Token test-token-local'",
    "export API_TOKEN=dev_secret_local",
]
pos += [
    ("curl -H 'Authorization: Bearer " + r(40, A62) + "' https://api.example.com/v1/items", "authorization-header"),
]
pos += [
    ("my sudo password is HANZpxCNqQFvAK, use it when prompted", "password-in-prose"),
    ("docker pull fails. my ~/.docker/config.json:\n{\n  \"auths\": {\n    \"ghcr.io\": {\"auth\": \"a2Vuamk6NGtVeFlHXmRtJSVwZTlnWA==\"}\n  }\n}", "docker-config-auth"),
]
neg += [
    "the admin password is Password, change it on first login",
    "{\"auths\": {\"ghcr.io\": {}}, \"credsStore\": \"osxkeychain\"}",
]
pos += [
    ("the Go ingest service dsn is \"ingest:" + r(16, A62 + "-") + "@tcp(mysql-prod.internal:3306)/events?parseTime=true\" - why does it time out?", "connection-string-password"),
    ("service principal: tenant 72f988bf-86f1-41af-91ab-2d7cd011db47 client_secret " + r(34, A62 + "_~") + " add it to the provider", "labeled-token"),
]
neg += [
    "dsn := \"root:@tcp(127.0.0.1:3306)/test\"",
    "the client_secret lives in Key Vault under kv-shop-prod/clients/pipeline",
    "set max_tokens 4096 in the request",
]
pos += [
    ("the staging db password is " + r(18, A62) + " and the host key fingerprint is SHA256:" + r(43, A62), "password-in-prose"),
]
test_only.append(("export const FAKE_JWT = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ0ZXN0LXVzZXItMTIzNDUifQ.';", "jwt"))

# Provider tokens followed by prose punctuation (a comma, a period, a
# bracket), not only by a quote or a space.
pos += [
    ("maps don't render on the checkout page, key is AIza" + r(35, A62 + "-_") + ", is it the referrer restriction?", "gcp-api-key"),
    ("publish fails with this token (npm_" + r(36, A62) + ").", "npm-access-token"),
    ("the PAT ghp_" + r(36, A62) + ". expires tomorrow", "github-pat"),
]
neg += [
    "the key looks like AIzaXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX, see the docs.",
    "export TELEGRAM_BOT_TOKEN=123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11",
]
pos += [
    ("2. root password (break-glass): `" + r(18, A62 + "!#*-") + "`\n3. Rotate after use.", "password-in-prose"),
]

# A long random key body that holds a placeholder word by chance, and a
# Discord bot token of any first letter near the word discord.
pos += [
    ("use this service account:\n{\n \"type\": \"service_account\",\n \"private_key\": \"-----BEGIN PRIVATE KEY-----\\n" + r(70, A62 + "+/") + "\\n" + r(30, A62 + "+/") + "/FAKEt" + r(34, A62 + "+/") + "\\n" + r(50, A62 + "+/") + "==\\n-----END PRIVATE KEY-----\\n\"\n}", "private-key"),
    ("fix my discord.py bot, client.run('" + r(24, A62) + "." + r(6, A62 + "_-") + "." + r(38, A62 + "_-") + "')", "discord-user-token"),
]
neg += [
    "-----BEGIN PRIVATE KEY-----\n...REDACTED...\n-----END PRIVATE KEY-----",
    "discord.py docs: client.run(os.environ['DISCORD_TOKEN']) reads the bot token from the environment",
]

# Session cookies pasted with their values.
pos += [
    ("here's my cookie: _storefront_session=" + r(150, A62 + "-_") + "--" + r(40, HEX) + " . write a curl that exports the orders", "session-cookie"),
    ("curl -b 'connect.sid=s%3A" + r(32, A62 + "-_") + "." + r(43, A62 + "+/") + "' https://admin.shop.example.com/api/orders", "session-cookie"),
    ("Cookie: csrftoken=" + r(32, A62) + "; sessionid=" + r(32, "abcdefghijklmnopqrstuvwxyz0123456789"), "session-cookie"),
]
neg += [
    "INFO request done session_id=3fa85f64-5717-4562-b3fc-2c963f66afa6 status=200",
    "set the session cookie name to _storefront_session in config/initializers/session_store.rb",
    "Cookie: sessionid=<your-session-id>",
]

# AWS access key ids written with digits base32 does not have.
pos += [
    ("here are the creds for the staging bucket: AKIA" + r(16, string.ascii_uppercase + string.digits).replace("2", "8") + " / " + r(40, A62 + "/+"), None),
]
neg += [
    "the sample id AKIAIOSFODNN7EXAMPLE from the AWS docs",
    "we shipped to Slovakia and Malaysia last week",
]

# Keys named for what they guard, as a value after a colon (a pasted
# Rails config/master.key), and look-alikes that name a key without one.
pos += [
    ("credentials:edit won't open, here's config/master.key: " + r(32, HEX) + " -- can you decrypt it?", "named-key"),
    ("SECRET_KEY_BASE is " + r(128, HEX) + ", is that long enough?", None),
]
neg += [
    "  remoteRef:\n    key: secret/data/payments/db\n    property: password",
    "the master key: lives in config/master.key, never commit it",
    "set secret_key: ${RAILS_SECRET_KEY} in the chart values",
]

# A password in prose before a comma; a login written as user / password.
pos += [
    ("new prod db password is " + r(14, A62) + ", update your local settings", "password-in-prose"),
    ("Repro: log in as admin@fintrail.example / " + r(18, A62 + "#!") + " on the staging site", "login-pair"),
]
neg += [
    "client = Client(api_key=api_key, timeout=30)",
    "log in as admin@example.com / <password from 1Password>",
    "credentials: see docs/setup.md / ask the team",
]

# A MySQL password quoted after -p.
pos += [
    ("summarize the slow log: mysql -h db.internal -u root -p'" + r(16, A62 + "!%") + "' -e 'select 1'", "mysql-password-option"),
]

# A VPN's shared secret in backticks after its name.
pos += [
    ("2. VPN: vpn.shop-internal.example, group `eng`, shared secret `" + r(10, A62) + "7=y`.", "password-in-prose"),
]

# A deploy hook's key in a URL; a login in backticks in a doc.
pos += [
    ("      - run: curl -fsS -X POST https://api.render.example/deploy/srv-6ks8v2?key=" + r(10, A62) + "7", "url-query-secret"),
    ("3. Admin panel: https://admin.shop-internal.example user `admin` / `" + r(14, A62 + "#%") + "#2`", "login-pair"),
]
neg += [
    "curl 'https://api.example.com/v1/items?key=${API_KEY}&limit=10'",
    "https://maps.example.com/search?key=restaurants&page=2",
]

# A saved cookie jar; a registry token written as a Bearer header value; an
# API key as appid in a query string.
pos += [
    ("# Netscape HTTP Cookie File\n.acme.example\tTRUE\t/\tTRUE\t1765000000\tsession_id\t" + r(64, HEX) + "\n", "cookie-jar-entry"),
    ("[registries.internal]\nindex = \"sparse+https://cargo.example.dev/index/\"\ntoken = \"Bearer " + r(48, A62) + "\"\n", "bearer-assignment"),
    ("fetch https://api.weather.example/data/2.5/weather?q=Berlin&appid=" + r(32, HEX), "url-query-secret"),
]
neg += [
    "# Netscape HTTP Cookie File\n.example.com\tTRUE\t/\tFALSE\t0\ttheme\tdark\n",
    "token = \"Bearer ${REGISTRY_TOKEN}\"",
    "headers = {\"Authorization\": \"Bearer <your-token-here>\"}",
]

# A password manager's CSV export (a table of logins with a password column);
# a password written in prose after a long aside. Benign: the same header with
# empty or placeholder cells, stored hashes, a schema that names the column.
pos += [
    ("folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp\n"
     "work,1,login,AWS root,,,0,https://console.aws.amazon.com,sam@acme.dev," + r(18, A62 + "#!") + ",\n", "password-table"),
    ("url\tusername\tpassword\nhttps://mail.example.org\tsam\t" + r(14, A62) + "\n", "password-table"),
    ("- master password (until we move it to Secrets Manager): `" + r(22, A62) + "`\n", "password-in-prose"),
]
neg += [
    "name,url,username,password\nGitHub,https://github.com,sam,\n",
    "id,email,password_hash,created_at\n1,sam@acme.dev,$2b$12$" + r(53, A62 + "./") + ",2024-01-02\n",
    "username,email,password\nalice,alice@example.com,changeme\nbob,bob@example.com,<password>\n",
    "| column | type |\n|---|---|\n| username | text |\n| password | text |\n",
]

# SECRET_KEY and friends (names ending in _KEY that are keys), a quoted value
# holding brackets and symbols kept whole; a password named for whom it is;
# "creds are user / password".
pos += [
    ("DEBUG = False\nSECRET_KEY = '$7m6aaza!l+apge&)h42u(@x9!-=mm*p*#d=75@lcxi(ynv29l'\n", "env-assignment"),
    ("app.config['SECRET_KEY'] = '" + r(40, A62) + "'\n", ""),
    ("Password for the staging admin is " + r(6, A62) + "%-" + r(6, A62) + ", log in and take a screenshot", "password-in-prose"),
    ("the staging DB creds are staging_ro / " + r(10, A62) + "!65 at stg-db.internal:5432", "login-pair"),
]
test_only += [
    ("SECRET_KEY = 'django-insecure-" + r(50, A62 + "!@#$%^&*(-_=+)") .replace("'", "") + "'\n", "env-assignment"),
]
neg += [
    "SECRET_KEY = os.environ['DJANGO_SECRET_KEY']\n",
    "SECRET_KEY = env('SECRET_KEY')\n",
    "PRIMARY_KEY = 'customer_id'\n",
    "The password for the admin is required on first login.",
    "creds are in 1Password / vault",
]

# A token in a URL with one percent escape (%3D for '=') is decoded too.
pos += [
    ("https://collect.example-x.top/u?d=aws_secret_access_key%3D" + r(40, A62), ""),
]
neg += [
    "coverage went from 80% to 95%, see https://ci.example.com/builds?branch=main",
]

# A token split into groups with spaces to get past a scanner.
_pat = r(36, A62)
pos += [
    ("remove the spaces and use this as GH_TOKEN: ghp_ " + " ".join(_pat[i:i + 4] for i in range(0, 36, 4)), "github-pat"),
]
neg += [
    "our GitHub tokens start with ghp_ and our OpenAI keys with sk-proj- so the scanner can tell them apart",
]

# A token handed over in parts: the first part alone is still a token's.
_part = r(16, A62)
pos += [
    ("the chat mangles it, so here it is in two parts, join them: first part ghp_" + _part + " second part " + r(20, A62), "vcs-token"),
]
neg += [
    "set GH_TOKEN to your ghp_xxxxxxxxxxxxxxxx token from the settings page",
]

# A login pair after "with" or a label's colon.
pos += [
    ("Connected fine to Snowflake with svc_etl / " + r(6, A62) + "!" + r(8, A62) + " from the bastion.", "login-pair"),
    ("SQL: sqladmin / " + r(10, A62) + "_" + r(8, A62) + "#", "login-pair"),
]
neg += [
    "the cache supports read / write modes and works with npm / pnpm-workspace.yaml layouts",
    "Columns: name / description / created_at",
]

# A token given in pieces, unquoted, one a line after a label.
_pat = "github_pat_11" + r(20, string.ascii_uppercase + string.digits) + "_" + r(59, A62)
pos += [
    ("it wraps badly, so in parts - join them:\npiece A: " + _pat[:30] + "\npiece B: " + _pat[30:62] + "\npiece C: " + _pat[62:] +
     "\nand put it in the workflow as GH_TOKEN", "github-fine-grained-pat"),
]
neg += [
    "split the migration in parts and join them later:\nstep 1: create_table_users\nstep 2: add_index_on_email\n",
]

# A chat webhook URL holds its token.
pos += [
    ("post the alerts to our channel: https://discord.com/api/webhooks/" + r(19, string.digits) + "/" + r(68, A62 + "_-"), "discord-webhook-url"),
]
neg += [
    "set DISCORD_WEBHOOK_URL to https://discord.com/api/webhooks/<id>/<token> from the channel settings",
    "Hardhat's first test account, 0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80, is public",
]

# Providers whose token prefix names them, bare in a sentence.
pos += [
    ("the client fails with 401 even though r8_" + r(37) + " works with curl", "replicate-api-token"),
    ("GROQ_KEY is gsk_" + r(52), "groq-api-key"),
    ("use sk-or-v1-" + r(64, HEX) + " for the router", "openrouter-api-key"),
    ("tracing needs lsv2_pt_" + r(32, HEX) + "_" + r(10, HEX), "langsmith-api-key"),
    ("the CLI logged in as sbp_" + r(40, HEX), "supabase-token"),
    ("join the tailnet with tskey-auth-" + r(12) + "-" + r(30), "tailscale-key"),
    ("# recipients: age1" + r(58, "qpzry9x8gf2tvdw0s3jn54khce6mua7l") + "\nAGE-SECRET-KEY-1" + r(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"), "age-secret-key"),
]
neg += [
    "set REPLICATE_API_TOKEN=r8_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx in your shell",
    "Groq keys look like gsk_... and go in GROQ_API_KEY",
    "re_compile_pattern = re.compile(r'[a-z]+'); the key-value store keeps more_than_enough entries",
]

cases = []
for text, kind in pos:
    cases.append({"text": text, "secret": True, "blocking": True, "kind": kind or ""})
for text in neg:
    cases.append({"text": text, "secret": False, "blocking": False, "kind": ""})
for text, kind in test_only:
    cases.append({"text": text, "secret": True, "blocking": False, "kind": kind})

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases.json")
with open(out, "w") as f:
    json.dump(cases, f, indent=1)
    f.write("\n")
print(len(cases), "cases")
