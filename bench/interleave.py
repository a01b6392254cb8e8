#!/usr/bin/env python3
"""Times shell commands interleaved, one run of each in turn, and prints each one's median in milliseconds.

hyperfine runs all of one command's runs before the next command's, so a change in the machine's load between
them (other builds on a shared machine) shows up as a difference between the commands. Interleaved, every command
meets the same load, and the ratios of their medians hold.

    interleave.py RUNS NAME COMMAND [NAME COMMAND ...]
"""
import statistics
import subprocess
import sys
import time


def main() -> None:
    runs = int(sys.argv[1])
    pairs = list(zip(sys.argv[2::2], sys.argv[3::2]))
    times: dict[str, list[float]] = {name: [] for name, _ in pairs}
    for _ in range(3):  # warm-up: page cache, caches of gitjournal
        for _, command in pairs:
            subprocess.run(command, shell=True, check=True)
    for _ in range(runs):
        for name, command in pairs:
            started = time.perf_counter()
            subprocess.run(command, shell=True, check=True)
            times[name].append((time.perf_counter() - started) * 1000)
    for name, _ in pairs:
        print(f"{name}\t{statistics.median(times[name]):.1f}")


if __name__ == "__main__":
    main()
