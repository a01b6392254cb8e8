#!/usr/bin/env python3
"""Times `gitjournal hook post-commit` in bench/instructions.sh's worlds, one run of each build and world in turn, each
started with posix_spawn (no shell), and prints the medians and each build's ratio of the last world to the first.

    flatness.py RUNS WORLD... -- BINARY...

After a commit: RUNS rounds, each making one commit in every world's clone with hooks off (not timed) before its
hook. Nothing new: 6 x RUNS rounds of the hook again with nothing changed.
"""
import os
import statistics
import subprocess
import sys
import time


def main() -> None:
    runs = int(sys.argv[1])
    split = sys.argv.index("--")
    worlds, binaries = sys.argv[2:split], sys.argv[split + 1 :]
    variants = [(binary, world) for binary in binaries for world in worlds]

    def environment(world: str) -> dict:
        return dict(os.environ, HOME=f"{world}/instructions-home", GIT_CONFIG_NOSYSTEM="1")

    def hook(binary: str, world: str) -> float:
        os.chdir(f"{world}/commit-instructions")
        started = time.perf_counter()
        pid = os.posix_spawn(binary, [binary, "hook", "post-commit"], environment(world))
        _, status = os.waitpid(pid, 0)
        if status != 0:
            sys.exit(f"flatness: {binary} hook failed in {world}")
        return (time.perf_counter() - started) * 1000

    counter = 0

    def commit(world: str) -> None:
        nonlocal counter
        counter += 1
        clone = f"{world}/commit-instructions"
        with open(f"{clone}/counter", "a") as file:
            file.write(f"flatness {counter}\n")
        subprocess.run(["git", "-c", "core.hooksPath=/dev/null", "commit", "-qam", f"flatness {counter}"],
                       cwd=clone, env=environment(world), check=True)

    for label, rounds, before in (("after a commit", runs, commit), ("nothing new", 6 * runs, None)):
        times = {variant: [] for variant in variants}
        for round in range(rounds + 3):  # three rounds of warm-up: page cache, each build's caches
            for binary, world in variants:
                if before:
                    before(world)
                elapsed = hook(binary, world)
                if round >= 3:
                    times[(binary, world)].append(elapsed)
        print(f"-- {label}, medians of {rounds} rounds")
        for binary in binaries:
            medians = [statistics.median(times[(binary, world)]) for world in worlds]
            shown = ", ".join(f"{os.path.basename(world)} {median:.2f} ms" for world, median in zip(worlds, medians))
            print(f"{os.path.basename(binary)}: {shown}; last / first = {medians[-1] / medians[0]:.2f}x")


if __name__ == "__main__":
    main()
