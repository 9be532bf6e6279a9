#!/usr/bin/env bash
# Installs the Debian packages the code-sample tests use (test/samples/), only those missing: a no-op once done.
#   run against the Local sandbox: curl; python3 with python3-jwt, python3-cryptography, python3-requests (the Python
#     sample's PyJWT[crypto] and requests); python3-pytest (the examples/ci/python suite); golang-go with
#     golang-github-golang-jwt-jwt-dev (golang-jwt 4.4.3: Debian does not package v5, the test builds the Go sample against it under the v5 import path);
#   syntax checks: php-cli (php -l), a JDK (javac parses the Java sample; Debian has no nimbus-jose-jwt jar).
#   Not in Debian: dotnet (the C# sample is skipped with that reason). Nothing is downloaded at test time.
set -euo pipefail
pkgs=()
for p in curl python3 python3-jwt python3-cryptography python3-requests python3-pytest golang-go golang-github-golang-jwt-jwt-dev php-cli; do
  dpkg -s "$p" >/dev/null 2>&1 || pkgs+=("$p")
done
command -v javac >/dev/null 2>&1 || pkgs+=(default-jdk-headless)
if [ ${#pkgs[@]} -gt 0 ]; then
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${pkgs[@]}"
else
  echo "samples: toolchains already installed"
fi
