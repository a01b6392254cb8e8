#!/usr/bin/env python3
"""A loopback HTTP proxy in front of the model server, for scripts/e2e-local-model.sh and
scripts/evaluate-sentences.sh.

llama-server does not log the requests it serves, so this proxy forwards each one and appends one JSON
line per request to a log: method, path, status, seconds, and both bodies. The scripts count from it what
gitjournal sent (nothing at all while it backs off) and read the model's raw answers, rejected ones too.
When the model server is down it answers 502, and still logs the request: left running on the server's
port, it shows whether anyone knocked.

usage: request-log-proxy.py LISTEN_PORT UPSTREAM_PORT LOG_FILE
"""
import http.client
import http.server
import json
import sys
import threading
import time

LISTEN_PORT, UPSTREAM_PORT, LOG_FILE = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
log_lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def forward(self):
        started = time.time()
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        try:
            upstream = http.client.HTTPConnection("127.0.0.1", UPSTREAM_PORT, timeout=600)
            headers = {"Content-Type": self.headers.get("Content-Type", "application/json")}
            upstream.request(self.command, self.path, body=body or None, headers=headers)
            answer = upstream.getresponse()
            status, reply = answer.status, answer.read()
            kind = answer.getheader("Content-Type", "application/json")
            upstream.close()
        except OSError as error:
            status, kind = 502, "application/json"
            reply = json.dumps({"error": f"proxy: the model server is down ({error})"}).encode()
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(reply)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(reply)
        entry = {
            "at": round(started, 3),
            "method": self.command,
            "path": self.path,
            "status": status,
            "seconds": round(time.time() - started, 3),
            "request": body.decode("utf-8", "replace"),
            "response": reply.decode("utf-8", "replace"),
        }
        with log_lock, open(LOG_FILE, "a", encoding="utf-8") as log:
            log.write(json.dumps(entry) + "\n")

    do_GET = do_POST = do_HEAD = forward

    def log_message(self, format, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", LISTEN_PORT), Handler)
server.daemon_threads = True
server.serve_forever()
