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
    .target(
      name: "GitJournalCore",
      dependencies: ["CLibgit2"]
    ),
    .executableTarget(
      name: "gitjournal",
      dependencies: ["GitJournalCore"]
    ),
    .testTarget(
      name: "GitJournalCoreTests",
      dependencies: ["GitJournalCore"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
