#!/bin/sh
# Generates the fake API server's test CA and serving certificate, once; the results are committed.
# The CA key is thrown away afterwards: nothing needs to sign with it again, and a committed CA key
# would let anyone mint certificates this test CA vouches for. Re-run to replace all three files.
# Valid for ~100 years so the tests never start failing on a date.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 36500 \
  -subj "/CN=kubectl-why fake-apiserver test CA" \
  -addext "basicConstraints=critical,CA:TRUE" \
  -addext "keyUsage=critical,keyCertSign,cRLSign" \
  -keyout "$tmp/ca.key" -out ca.crt

# A real kube-apiserver serving cert: CN kube-apiserver, SANs for the loopback names clients dial.
openssl req -newkey rsa:2048 -nodes -sha256 \
  -subj "/CN=kube-apiserver" \
  -keyout server.key -out "$tmp/server.csr"
cat > "$tmp/ext.cnf" <<EXT
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc
EXT
openssl x509 -req -sha256 -days 36500 -in "$tmp/server.csr" \
  -CA ca.crt -CAkey "$tmp/ca.key" -CAcreateserial -CAserial "$tmp/ca.srl" \
  -extfile "$tmp/ext.cnf" -out server.crt
openssl verify -CAfile ca.crt server.crt
