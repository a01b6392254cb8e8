#!/usr/bin/env python3
"""Checks `gitjournal mcp` against a client nobody here wrote: the official MCP Python SDK's stdio client.

In a scratch journal with a public project (app) and a private one (vault), it initializes, lists the tools and the
resources (every page of them), calls each tool, reads a day's, a week's and a month's page, and checks that
- each tool's structuredContent validates against its outputSchema (jsonschema) and equals what
  `gitjournal show ... --json` prints for the same day, range or week, the private project's path, times and
  commits left out;
- no answer holds the private project's subjects, branch name, commit ids or path.

Needs `pip install mcp jsonschema` (scripts/check-mcp-sdk.sh makes a virtual environment for them) and a built
gitjournal: `.build/debug/gitjournal` unless given with --binary. Not part of `swift test`, which needs no network.
"""

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import jsonschema
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

DAYS = ["2026-03-09", "2026-03-10"]
PRIVATE_SUBJECTS = ["Rotate the vault master keys", "Draft the acquisition memo"]
PRIVATE_BRANCH = "client/acme-merger"
EMAIL = "ana@example.com"

failures = []
checks = 0


def check(condition, what):
    global checks
    checks += 1
    if not condition:
        failures.append(what)
        print(f"FAIL: {what}", file=sys.stderr)


def git(repository, *arguments, date=None):
    environment = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", HOME=str(repository.parent.parent / "home"))
    if date:
        environment.update(GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    result = subprocess.run(
        ["git", "-C", str(repository), "-c", f"user.email={EMAIL}", "-c", "user.name=Ana", *arguments],
        env=environment, capture_output=True, text=True, check=True)
    return result.stdout.strip()


def commit(repository, name, message, date):
    (repository / name).write_text(message + "\n")
    git(repository, "add", "-A")
    git(repository, "commit", "-q", "-m", message, date=date)
    return git(repository, "rev-parse", "HEAD")


class Journal:
    """A scratch HOME, config, journal folder and two repositories."""

    def __init__(self, root, binary):
        self.root = Path(root)
        self.binary = binary
        self.home = self.root / "home"
        self.journal = self.root / "journal"
        self.config = self.root / "config"
        self.home.mkdir()
        self.environment = {
            "HOME": str(self.home), "GITJOURNAL_CONFIG": str(self.config),
            "XDG_STATE_HOME": str(self.root / "state"), "XDG_CACHE_HOME": str(self.root / "cache"),
            "XDG_CONFIG_HOME": str(self.home / ".config"), "TZ": "UTC", "LANG": "C.UTF-8",
            "GIT_CONFIG_NOSYSTEM": "1", "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        }
        repositories = self.root / "repos"
        app, vault = repositories / "app", repositories / "vault"
        for repository in (app, vault):
            repository.mkdir(parents=True)
            git(repository, "init", "-q", "-b", "main")
        commit(app, "a.txt", "Teach the parser about tabs", "2026-03-09T09:00:00Z")
        commit(app, "b.txt", "Fix the sync crash", "2026-03-10T10:00:00Z")
        git(app, "checkout", "-q", "-b", "feature/export")
        commit(app, "c.txt", "Add CSV export", "2026-03-10T11:00:00Z")
        first = commit(vault, "k.txt", PRIVATE_SUBJECTS[0], "2026-03-10T09:30:00Z")
        git(vault, "checkout", "-q", "-b", PRIVATE_BRANCH)
        second = commit(vault, "m.txt", PRIVATE_SUBJECTS[1], "2026-03-10T12:00:00Z")
        for key, value in [
            ("journal.dir", str(self.journal)), ("journal.author", EMAIL), ("narrative.engine", "off"),
            ("repo.app.path", str(app)), ("repo.vault.path", str(vault)), ("repo.vault.private", "true"),
        ]:
            subprocess.run(["git", "config", "-f", str(self.config), key, value], check=True)
        self.run("rebuild", *DAYS)
        day = self.journal / "2026-03-10.md"
        day.write_text(day.read_text() + f"\nTalked about {PRIVATE_SUBJECTS[0]} with Ben ({first[:7]}).\n")
        self.secrets = PRIVATE_SUBJECTS + [PRIVATE_BRANCH, first, second, first[:7], second[:7], str(vault)]

    def run(self, *arguments):
        result = subprocess.run(
            [self.binary, *arguments], env=self.environment, cwd=self.home, capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"gitjournal {' '.join(arguments)} failed: {result.stderr}")
        return result.stdout

    def show(self, *arguments):
        return json.loads(self.run("show", *arguments, "--json"))


def redacted_day(day, private="vault"):
    """A day's JSON as the server gives it: the private project's path empty, its times and commits left out."""
    day = json.loads(json.dumps(day))
    for project in day["projects"]:
        if project["name"] == private:
            project.update(path="", commits=[])
            project.pop("firstCommitAt", None)
            project.pop("lastCommitAt", None)
    return day


def redacted_range(report):
    report = json.loads(json.dumps(report))
    report["days"] = [redacted_day(day) for day in report["days"]]
    return report


def field(value, name, former):
    """A result's field: SDK 2 names them in snake case, SDK 1 as the protocol does."""
    return getattr(value, name) if hasattr(value, name) else getattr(value, former)


def dump(result):
    return result.model_dump_json(by_alias=True, exclude_none=True)


async def session_checks(journal):
    answers = []
    parameters = StdioServerParameters(command=journal.binary, args=["mcp"], env=journal.environment,
                                       cwd=str(journal.home))
    async with stdio_client(parameters) as (read, write):
        async with ClientSession(read, write) as session:
            initialized = await session.initialize()
            answers.append(dump(initialized))
            check(field(initialized, 'server_info', 'serverInfo').name == "gitjournal", "serverInfo.name is gitjournal")
            check(field(initialized, 'protocol_version', 'protocolVersion') == "2025-06-18",
                  f"agreed on 2025-06-18, not {field(initialized, 'protocol_version', 'protocolVersion')}")
            await session.send_ping()

            listed = await session.list_tools()
            answers.append(dump(listed))
            tools = {tool.name: tool for tool in listed.tools}
            check(sorted(tools) == sorted(["journal_day", "journal_range", "journal_week", "standup", "search_commits"]),
                  f"the five tools are listed: {sorted(tools)}")

            async def call(name, arguments, expected):
                result = await session.call_tool(name, arguments)
                answers.append(dump(result))
                check(not field(result, 'is_error', 'isError'), f"{name} {arguments} succeeds")
                structured = field(result, 'structured_content', 'structuredContent')
                schema = field(tools[name], 'output_schema', 'outputSchema')
                check(schema is not None, f"{name} has an outputSchema")
                try:
                    jsonschema.validate(structured, schema)
                except jsonschema.ValidationError as error:
                    check(False, f"{name}'s structuredContent validates against its outputSchema: {error.message}")
                if expected is not None:
                    check(structured == expected, f"{name} {arguments} equals show --json")
                check(bool(result.content) and result.content[0].type == "text" and result.content[0].text,
                      f"{name} has text content")
                return structured

            await call("journal_day", {"date": "2026-03-10"}, redacted_day(journal.show("2026-03-10")))
            await call("journal_range", {"since": DAYS[0], "until": DAYS[1]},
                       redacted_range(journal.show("--since", DAYS[0], "--until", DAYS[1])))
            await call("journal_week", {"date": "2026-03-10"}, redacted_range(journal.show("--week", "2026-03-10")))
            standup = await call("standup", {"days": 7}, None)
            check(standup["today"] == redacted_day(journal.show("today")), "standup's today equals show today --json")
            if standup["previous"] is not None:
                check(standup["previous"] == redacted_day(journal.show(standup["previous"]["date"])),
                      "standup's previous day equals show <day> --json")
            found = await call("search_commits", {"text": "the", "since": "2026-03-01", "until": "2026-03-10"}, None)
            shown = [
                dict(commit, date=day["date"], project=project["name"])
                for day in journal.show("--since", "2026-03-01", "--until", "2026-03-10")["days"]
                for project in day["projects"] if project["name"] == "app"
                for commit in project["commits"] if "the" in commit["subject"].lower()
            ]
            check(found["commits"] == list(reversed(shown)), "search_commits gives show --json's commits, newest first")
            hidden = await call("search_commits", {"text": PRIVATE_SUBJECTS[0], "since": "2026-03-01",
                                                   "until": "2026-03-10"}, None)
            check(hidden["commits"] == [], "a private subject is not found")

            uris, cursor = [], None
            while True:
                page = await session.list_resources(params=types.PaginatedRequestParams(cursor=cursor) if cursor else None)
                answers.append(dump(page))
                uris += [str(resource.uri) for resource in page.resources]
                cursor = field(page, 'next_cursor', 'nextCursor')
                if not cursor:
                    break
            check(uris == ["gitjournal://day/2026-03-10", "gitjournal://day/2026-03-09", "gitjournal://week/2026-W11",
                           "gitjournal://month/2026-03"], f"the journal's pages are listed: {uris}")
            for uri in ["gitjournal://day/2026-03-10", "gitjournal://week/2026-W11", "gitjournal://month/2026-03"]:
                page = await session.read_resource(uri)
                answers.append(dump(page))
                text = page.contents[0].text
                check(text.startswith("---\n"), f"{uri} is the page's text")
                if "day" in uri:
                    check("## vault\n\n- 2 commits, a private project" in text, f"{uri} counts the private commits")
                    check("Fix the sync crash" in text, f"{uri} keeps the public commits")
    return answers


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = Path(__file__).resolve().parent.parent
    parser.add_argument("--binary", default=str(root / ".build/debug/gitjournal"))
    arguments = parser.parse_args()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="gitjournal-mcp-sdk.") as folder:
        journal = Journal(folder, os.path.abspath(arguments.binary))
        answers = asyncio.run(session_checks(journal))
        everything = "\n".join(answers)
        for secret in journal.secrets:
            check(secret not in everything, f"no answer holds the private text {secret!r}")
    print(f"{checks} checks of {len(answers)} answers in {time.monotonic() - started:.1f} s; "
          f"{len(failures)} {'failure' if len(failures) == 1 else 'failures'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
