import Testing

/// Issue 7's fast reliability suite: load, crash, disk and permissions, hostile input, privacy, and the merger
/// against random files. `swift test --filter Reliability` runs it alone. Each test prints its row of the table
/// (`reliability | case | tried N | passed N | data lost N`); with `GITJOURNAL_RELIABILITY_TABLE=<file>` the rows
/// are also appended to that file, tab-separated. `scripts/soak.sh` runs the long version against the built binary.
@Suite struct Reliability {}
