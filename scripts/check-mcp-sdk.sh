#!/usr/bin/env bash
# Runs scripts/check-mcp-sdk.py in a virtual environment with the official MCP Python SDK and jsonschema (from PyPI,
# kept in .build/mcp-sdk-venv), against the debug build unless GITJOURNAL_BINARY names another.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/mcp-sdk-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet mcp jsonschema
fi
[ -n "${GITJOURNAL_BINARY:-}" ] || swift build --product gitjournal >/dev/null
exec "$venv/bin/python" scripts/check-mcp-sdk.py --binary "${GITJOURNAL_BINARY:-.build/debug/gitjournal}"
