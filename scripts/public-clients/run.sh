#!/usr/bin/env bash
# Runs the public Ruby and Go clients of the protocol against a running sandbox (a maintainer's check, not part of
# npm test: it needs Debian's ruby, ruby-faraday and golang-go, and checkouts of the two clients).
#   RUBY_CLIENT_DIR=…/qiwi-kassa GO_CLIENT_DIR=…/qiwi scripts/public-clients/run.sh http://127.0.0.1:3000 demo
# The service must allow loopback receivers (NOTIFY_ALLOW_NETWORKS=127.0.0.0/8): both scripts verify the
# notifications they receive with the client's own signature code.
set -euo pipefail
base=${1:?base origin, e.g. http://127.0.0.1:3000} site=${2:-demo}
case "$base" in http://127.* | http://localhost:* | http://\[::1\]:*) ;; *) echo "loopback only: $base" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
token=${TOKEN:-$(cat data/"$site".token)}
secret=${SECRET:-$(npm run -s site -- secret "$site" | tail -1)}

echo "== Ruby: OnlinetoursGit/qiwi-kassa ($RUBY_CLIENT_DIR)"
RUBY_CLIENT_DIR=$RUBY_CLIENT_DIR ruby "$here/ruby-client.rb" "$base" "$site" "$token" "$secret"

echo "== Go: sendtips/qiwi ($GO_CLIENT_DIR)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here"/go-client/main.go "$here"/go-client/go.mod "$work"/
ln -s "$(cd "$GO_CLIENT_DIR" && pwd)" "$work/client"
(cd "$work" && GOFLAGS=-mod=mod GOPROXY=off GOSUMDB=off go run . "$base/partner" "$site" "$token" "$secret" sandbox-approved)
