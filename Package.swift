// swift-tools-version:6.0
import PackageDescription

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
    .target(
      name: "GitJournalCore",
      dependencies: ["CLibgit2", "CSystem"]
    ),
    // Linked into the executable only: keeps libgit2's start-up from loading TLS certificates it never uses.
    .target(name: "CFastStart"),
    .executableTarget(
      name: "gitjournal",
      dependencies: ["GitJournalCore", "CFastStart"]
    ),
    .testTarget(
      name: "GitJournalCoreTests",
      dependencies: ["GitJournalCore"],
      // Golden help texts, read from the source tree by path.
      exclude: ["Golden"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
