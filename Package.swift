// swift-tools-version:6.0
import PackageDescription

#if os(Linux)
  import Foundation
#endif

// How the C libraries are linked. On Linux, libgit2 and what it needs come from static archives where the system
// has every one of them, so that a hook's start does not load and relocate a dozen shared libraries for network
// transports gitjournal never uses (docs/architecture.md, "Speed devices"). Where one archive is missing, libgit2
// is linked as a shared library instead: the static link is a start-up optimisation, never the reason a build
// fails. `GITJOURNAL_LINK=dynamic` asks for the shared libraries anyway; `gitjournal --version --verbose` says which
// link a build has. On macOS, Homebrew's shared libraries.

#if os(Linux)
  /// The words `pkg-config` prints for `arguments`; nil when it is missing or fails.
  func pkgConfig(_ arguments: [String]) -> [String]? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["pkg-config"] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let data: Data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    let text = String(decoding: data, as: UTF8.self)
    return text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init)
  }

  /// Debian's and Ubuntu's name for this machine's folders of libraries (`/usr/lib/<multiarch>`).
  #if arch(arm64)
    let multiarch = "aarch64-linux-gnu"
  #else
    let multiarch = "x86_64-linux-gnu"
  #endif

  /// Parts of the C library, which every program links as usual.
  let systemLibraries: Set<String> = ["c", "m", "dl", "rt", "pthread", "resolv", "util"]
  /// Kerberos, which libgit2 calls only to answer an HTTP server's "Negotiate" challenge. Debian ships no static
  /// archive of it; `Sources/CLibgit2Link` stands in for the calls libgit2 makes, each refusing.
  let replacedByStandIns: Set<String> = ["gssapi_krb5", "gssapi", "krb5", "k5crypto", "com_err"]

  /// The static archives that link `package` and everything it needs, or nil when one of them is missing here or
  /// `GITJOURNAL_LINK=dynamic` is set. What a library needs comes from pkg-config: `--static` adds its private
  /// libraries, and each of those that has a `.pc` of its own adds what that one says in turn (libgit2's names
  /// libssh2 as a bare `-lssh2`, whose OpenSSL, and OpenSSL's zstd on Debian 13, only libssh2's `.pc` names).
  func staticArchives(of package: String) -> [String]? {
    if Context.environment["GITJOURNAL_LINK"] == "dynamic" { return nil }
    guard var words: [String] = pkgConfig(["--static", "--libs", package]) else { return nil }
    var folders: [String] = pkgConfig(["--variable=libdir", package]) ?? []
    var expanded: Set<String> = [package]
    var names: [String] = []
    var index = 0
    while index < words.count {
      let word = words[index]
      index += 1
      if word.hasPrefix("-L") {
        folders.append(String(word.dropFirst(2)))
        continue
      }
      guard word.hasPrefix("-l") else { continue }
      let name = String(word.dropFirst(2))
      if systemLibraries.contains(name) || replacedByStandIns.contains(name) || names.contains(name) { continue }
      names.append(name)
      for candidate in ["lib" + name, name] where !expanded.contains(candidate) {
        guard let more = pkgConfig(["--static", "--libs", candidate]) else { continue }
        expanded.insert(candidate)
        words += more
        break
      }
    }
    // Where the linker looks by default (a `.pc` may name a `libdir` without the multiarch part, as libdeflate's does).
    folders += ["/usr/local/lib", "/usr/lib/\(multiarch)", "/usr/lib", "/lib/\(multiarch)", "/lib"]
    var archives: [String] = []
    for name in names {
      let archive = "lib\(name).a"
      guard folders.contains(where: { FileManager.default.fileExists(atPath: "\($0)/\(archive)") }) else { return nil }
      archives.append(archive)
    }
    return archives
  }

  /// The static C++ library, when the Swift runtime is linked in and GCC's `libstdc++.a` is there for the linker
  /// script in `link/` to name (the newest GCC's, which the toolchain's linker takes).
  func hasStaticLibstdcxx() -> Bool {
    let root = "/usr/lib/gcc/\(multiarch)"
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    guard let newest = versions.compactMap({ Int($0) }).max() else { return false }
    return FileManager.default.fileExists(atPath: "\(root)/\(newest)/libstdc++.a")
  }

  let libgit2Archives: [String]? = staticArchives(of: "libgit2")
  let libdeflateArchives: [String]? = staticArchives(of: "libdeflate")
  let linksLibstdcxxStatically: Bool = Context.environment["GITJOURNAL_LINK"] != "dynamic" && hasStaticLibstdcxx()
#else
  let libgit2Archives: [String]? = nil
  let libdeflateArchives: [String]? = nil
  let linksLibstdcxxStatically = false
#endif

/// The linker arguments for static archives, in one group so that their order does not matter.
func archiveGroup(_ archives: [String]) -> [String] {
  var arguments: [String] = ["-Xlinker", "--start-group"]
  for archive in archives { arguments += ["-Xlinker", "-l:\(archive)"] }
  return arguments + ["-Xlinker", "--end-group"]
}

// With the static libgit2, the linker sends libgit2's TLS and SSH set-up, the making of TLS streams and SSH
// transports and mbedTLS's two certificate loaders to the stand-ins in `Sources/CLibgit2Link` (`--wrap`), which
// refuse or do nothing. A name the installed libgit2 does not have is simply never wrapped.
let wrappedFunctions: [String] = [
  "mbedtls_x509_crt_parse_file", "mbedtls_x509_crt_parse_path", "git_mbedtls_stream_global_init", "git_tls_stream_new",
  "git_tls_stream_wrap", "git_mbedtls__set_cert_location", "git_transport_ssh_global_init",
  "git_smart_subtransport_ssh",
]

var gitReaderLinkFlags: [String] = []
var gitReaderSwiftFlags: [String] = []
var gitReaderSwiftDefines: [SwiftSetting] = []
var standInDefines: [CSetting] = []
if let libgit2Archives {
  for function in wrappedFunctions { gitReaderLinkFlags += ["-Xlinker", "--wrap=\(function)"] }
  gitReaderLinkFlags += archiveGroup(libgit2Archives)
  gitReaderSwiftFlags += ["-Xcc", "-DGITJOURNAL_STATIC_LIBGIT2"]
  gitReaderSwiftDefines.append(.define("GITJOURNAL_STATIC_LIBGIT2"))
  standInDefines.append(.define("GITJOURNAL_STATIC_LIBGIT2"))
} else {
  // zlib too, which the pack reader calls itself (the static group above has it).
  gitReaderLinkFlags += ["-lgit2", "-lz"]
}
if let libdeflateArchives {
  gitReaderLinkFlags += archiveGroup(libdeflateArchives)
  gitReaderSwiftDefines.append(.define("GITJOURNAL_STATIC_LIBDEFLATE"))
} else {
  gitReaderLinkFlags.append("-ldeflate")
}

// The Swift runtime's C++ library, from its static archive when the runtime itself is linked in: `link/` holds a
// linker script named `libstdc++.so` that the `-lstdc++` of the runtime's link arguments finds first, and that
// names `libstdc++.a` (see the script). Left out where GCC's `libstdc++.a` is not installed.
let libstdcxxStatic: [String] = linksLibstdcxxStatically ? ["-L\(Context.packageDirectory)/link"] : []
// A file uses only the members of the modules it imports itself, not of any module another file of its target
// happens to import (SE-0444, Swift 6.1): what a file depends on is in its own imports. Older compilers build the
// same code without the check. A member named as the standard library's (Support's `joined`) is the standard
// library's in a file that does not import Support, without an error: such a file imports Support.
#if compiler(>=6.1)
  let importedMembersOnly: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]
#else
  let importedMembersOnly: [SwiftSetting] = []
#endif
// A concrete generic type's metadata (a dictionary of `Day`s, say) is made through its accessor function, not
// looked up at run time by its mangled name: the lookup scans every protocol conformance of the executable to
// check the type's requirements, the first time for each such type, and a hook meets a dozen of them
// (docs/architecture.md, "Speed devices", measures the flag).
let metadataAccessors: [SwiftSetting] = [
  .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])
]
// The hook's path runs on its caller's executor, the executable's main thread, instead of hopping to Swift's global
// pool, whose first job starts its threads: Swift 6.2's `nonisolated(nonsending)`, made the default for the targets
// on the hook's path. Older compilers build the same code, with the hops.
#if compiler(>=6.2)
  let callerExecutor: [SwiftSetting] = [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
#else
  let callerExecutor: [SwiftSetting] = []
#endif
// What every Swift target of the product is built with.
let everyTarget: [SwiftSetting] = metadataAccessors + importedMembersOnly
// On macOS, Homebrew's shared libgit2 and libdeflate (Apple Silicon and Intel prefixes).
let homebrew: [String] = ["/opt/homebrew", "/usr/local"]
let homebrewIncludes: [String] = homebrew.flatMap { ["-I\($0)/include"] }
let homebrewLibraries: [String] = homebrew.flatMap { ["-L\($0)/lib"] }

let gitReaderSwiftSettings: [SwiftSetting] =
  everyTarget + gitReaderSwiftDefines + [
    .unsafeFlags(gitReaderSwiftFlags, .when(platforms: [.linux])),
    .unsafeFlags(homebrewIncludes.flatMap { ["-Xcc", $0] }, .when(platforms: [.macOS])),
  ]
let gitReaderLinkerSettings: [LinkerSetting] = [
  .unsafeFlags(gitReaderLinkFlags, .when(platforms: [.linux])),
  .unsafeFlags(homebrewLibraries + ["-lgit2", "-ldeflate"], .when(platforms: [.macOS])),
  // zlib, whose bound on a compressed size limits the pack reader's reads (on Linux it comes with libgit2 above).
  .linkedLibrary("z", .when(platforms: [.macOS])),
  // iconv, which decodes commit messages in legacy encodings (in the C library on Linux).
  .linkedLibrary("iconv", .when(platforms: [.macOS])),
]

// libgit2 handles, the history walk, line statistics and their caches.
let gitReader: Target = .target(
  name: "GitReader", dependencies: ["Support", "CLibgit2", "CLibgit2Link", "CLibdeflate", "CSystem"],
  cSettings: [.unsafeFlags(homebrewIncludes, .when(platforms: [.macOS]))],
  swiftSettings: gitReaderSwiftSettings,
  linkerSettings: gitReaderLinkerSettings)

let tests: Target = .testTarget(
  name: "GitJournalTests",
  dependencies: ["CLI", "Journal", "Narrative", "Facts", "GitReader", "Support", "CLibgit2"],
  // Golden help texts, read from the source tree by path.
  exclude: ["CLI/Golden"],
  swiftSettings: gitReaderSwiftDefines + [
    .unsafeFlags(gitReaderSwiftFlags, .when(platforms: [.linux])),
    .unsafeFlags(homebrewIncludes.flatMap { ["-Xcc", $0] }, .when(platforms: [.macOS])),
  ] + importedMembersOnly)

// The targets follow the data flow, so a backward dependency does not compile:
// Support -> GitReader -> Facts -> Journal, Narrative -> CLI -> gitjournal.
let targets: [Target] = [
  // libgit2's headers (from the system's include path, or Homebrew's). Linked by GitReader, statically or not.
  .systemLibrary(name: "CLibgit2", providers: [.apt(["libgit2-dev"]), .brew(["libgit2"])]),
  // libdeflate's header, in a module of its own: it is no part of libgit2, and a missing package is then named as
  // libdeflate's.
  .systemLibrary(name: "CLibdeflate", providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]),
  // What the static libgit2 is linked with: stand-ins that fail closed for the parts gitjournal never uses.
  .target(
    name: "CLibgit2Link",
    cSettings: standInDefines + [.unsafeFlags(homebrewIncludes, .when(platforms: [.macOS]))]),
  // posix_spawn with a new session and closed descriptors, for the detached narrator.
  .target(name: "CSystem"),
  // Files, locks, atomic writes, processes, the environment: nothing about git or journals.
  .target(name: "Support", dependencies: ["CSystem"], swiftSettings: everyTarget),
  gitReader,
  // Days, the journal calendar, a day's facts and their signature.
  .target(
    name: "Facts", dependencies: ["GitReader", "Support"], swiftSettings: everyTarget + callerExecutor),
  // The journal files: page, merge with the user's text, lock, atomic write.
  .target(
    name: "Journal", dependencies: ["Facts", "GitReader", "Support"],
    swiftSettings: everyTarget + callerExecutor),
  // The optional sentence: prompt, engines, guard, cache, backoff.
  .target(name: "Narrative", dependencies: ["Facts", "GitReader", "Support"], swiftSettings: everyTarget),
  // Config parsing into typed settings, hooks, commands and terminal output.
  .target(
    name: "CLI", dependencies: ["Journal", "Narrative", "Facts", "GitReader", "Support"],
    swiftSettings: everyTarget + callerExecutor),
  .executableTarget(
    name: "gitjournal", dependencies: ["CLI"], swiftSettings: everyTarget,
    linkerSettings: [.unsafeFlags(libstdcxxStatic, .when(platforms: [.linux]))]),
  tests,
]

let package = Package(
  name: "gitjournal",
  products: [.executable(name: "gitjournal", targets: ["gitjournal"])],
  targets: targets,
  swiftLanguageModes: [.v6]
)
