// swift-tools-version:6.0
import PackageDescription

// The targets follow the data flow, so a backward dependency does not compile:
// Support -> GitReader -> Facts -> Journal, Narrative -> CLI -> gitjournal.
let package = Package(
  name: "gitjournal",
  products: [
    .executable(name: "gitjournal", targets: ["gitjournal"])
  ],
  targets: [
    .systemLibrary(
      name: "CLibgit2",
      pkgConfig: "libgit2",
      providers: [.apt(["libgit2-dev"]), .brew(["libgit2"])]
    ),
    // posix_spawn with a new session and closed descriptors, for the detached narrator.
    .target(name: "CSystem"),
    // Files, locks, atomic writes, processes, the environment: nothing about git or journals.
    .target(name: "Support", dependencies: ["CSystem"]),
    // libgit2 handles, the history walk, line statistics and their caches.
    .target(name: "GitReader", dependencies: ["Support", "CLibgit2", "CSystem"]),
    // Days, the journal calendar, a day's facts and their signature.
    .target(name: "Facts", dependencies: ["GitReader", "Support"]),
    // The journal files: page, merge with the user's text, lock, atomic write.
    .target(name: "Journal", dependencies: ["Facts", "GitReader", "Support"]),
    // The optional sentence: prompt, engines, guard, cache, backoff.
    .target(name: "Narrative", dependencies: ["Facts", "GitReader", "Support"]),
    // Config parsing into typed settings, hooks, commands and terminal output.
    .target(name: "CLI", dependencies: ["Journal", "Narrative", "Facts", "GitReader", "Support"]),
    // Linked into the executable only: keeps libgit2's start-up from loading TLS certificates it never uses.
    .target(name: "CFastStart"),
    .executableTarget(
      name: "gitjournal",
      dependencies: ["CLI", "CFastStart"]
    ),
    .testTarget(
      name: "GitJournalTests",
      dependencies: ["CLI", "Journal", "Narrative", "Facts", "GitReader", "Support"],
      // Golden help texts, read from the source tree by path.
      exclude: ["CLI/Golden"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
