#!/usr/bin/env python3
"""Background narrator cost per commit with no model server (issue 15, item 8).

Usage: bench/narrators.py GITJOURNAL COMMITS INTERVAL RETRY_DELAY
  e.g. bench/narrators.py .build/debug/gitjournal 20 1 60   (default retry delay, a commit a second)
       bench/narrators.py .build/debug/gitjournal 20 3 2    (every commit outside a pause)

In a temporary HOME it installs the hook in a new repository, points the default engine (ollama) at a
loopback port where nothing listens, and commits COMMITS times, INTERVAL seconds apart. A poller records every
detached `gitjournal narrate` of that HOME from /proc (start time, last sight, user+system CPU) until none is
left, then prints the narrators' summed lifetimes and CPU time, in all and per commit. Linux only."""
import os, socket, subprocess, sys, tempfile, threading, time

binary, commits, interval, retry_delay = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
root = tempfile.mkdtemp(prefix="narrators-")
home = os.path.join(root, "home"); os.makedirs(home)
with open(os.path.join(home, ".gitconfig"), "w") as f:
    f.write("[user]\n\tname = Bench\n\temail = bench@example.com\n[init]\n\tdefaultBranch = main\n[gc]\n\tauto = 0\n")
env = {"HOME": home, "PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1", "TZ": "UTC", "LANG": "C.UTF-8"}
repo = os.path.join(root, "repo"); os.makedirs(repo)
def run(*args, cwd=repo): subprocess.run(args, cwd=cwd, env=env, check=True, capture_output=True)
run("git", "init", "-q")
run(binary, "install")
# A port where nothing listens.
s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
config = os.path.join(home, ".config/gitjournal/config")
run("git", "config", "-f", config, "narrative.url", f"http://127.0.0.1:{port}", cwd=home)
run("git", "config", "-f", config, "narrative.retryDelay", retry_delay, cwd=home)

ticks = os.sysconf("SC_CLK_TCK")
boot = time.time() - float(open("/proc/uptime").read().split()[0])
seen = {}  # pid -> [start, last_seen, cpu_seconds]
stop = False
def poll():
    while not stop:
        for pid in os.listdir("/proc"):
            if not pid.isdigit(): continue
            try:
                cmd = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
                if len(cmd) < 2 or not cmd[0].endswith(b"gitjournal") or cmd[1] != b"narrate": continue
                if f"HOME={home}".encode() not in open(f"/proc/{pid}/environ", "rb").read().split(b"\0"): continue
                stat = open(f"/proc/{pid}/stat").read()
                fields = stat[stat.rindex(")") + 2:].split()
                if fields[0] == "Z": continue
                cpu = (int(fields[11]) + int(fields[12])) / ticks
                start = boot + int(fields[19]) / ticks
                entry = seen.setdefault(pid, [start, time.time(), cpu])
                entry[1], entry[2] = time.time(), cpu
            except (OSError, ValueError, IndexError):
                pass
        time.sleep(0.01)
poller = threading.Thread(target=poll); poller.start()
for i in range(commits):
    with open(os.path.join(repo, f"f{i}.txt"), "w") as f: f.write(f"{i}\n")
    run("git", "add", "-A"); run("git", "commit", "-q", "-m", f"Commit {i}")
    time.sleep(interval)
deadline = time.time() + 400
def alive():
    def running(pid):
        try:
            stat = open(f"/proc/{pid}/stat").read()
            return stat[stat.rindex(")") + 2] != "Z"
        except OSError:
            return False
    return [p for p in list(seen) if running(p)]
while time.time() < deadline:
    time.sleep(0.5)
    if not alive(): break
stop = True; poller.join()
wall = sum(e[1] - e[0] for e in seen.values())
cpu = sum(e[2] for e in seen.values())
print(f"commits={commits} interval={interval}s retryDelay={retry_delay}: narrators={len(seen)} "
      f"wall={wall:.2f}s cpu={cpu:.2f}s per-commit wall={wall/commits:.3f}s cpu={cpu/commits:.4f}s "
      f"longest={max((e[1]-e[0] for e in seen.values()), default=0):.2f}s")
print("log:", open(os.path.join(home, ".local/state/gitjournal/narrative.log")).read().strip().splitlines()[-1:] if os.path.exists(os.path.join(home, ".local/state/gitjournal/narrative.log")) else "-")
