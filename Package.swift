// swift-tools-version:6.0
import PackageDescription

// On Linux, libgit2 and what it needs come from Debian's static archives (libgit2-dev brings them all), so that a
// hook's start does not load and relocate a dozen shared libraries for network transports gitjournal never uses
// (BENCHMARKS.md, "Linking libgit2"). The order is the link order: each archive before the ones it needs. Kerberos
// has no static archive: Sources/CLibgit2Link stands in for its GSSAPI calls, and `--wrap` sends the two
// certificate-loading calls there too, with mbedTLS's and libssh2's setup and the making of TLS streams and SSH
// transports, which refuse.
let libgit2Static =
  [
    "-Xlinker", "--wrap=mbedtls_x509_crt_parse_file", "-Xlinker", "--wrap=mbedtls_x509_crt_parse_path",
  ]
  + [
    "git_mbedtls_stream_global_init", "git_tls_stream_new", "git_tls_stream_wrap", "git_mbedtls__set_cert_location",
    "git_transport_ssh_global_init", "git_smart_subtransport_ssh",
  ]
  .flatMap {
    ["-Xlinker", "--wrap=\($0)"]
  }
  + ["git2", "mbedtls", "mbedx509", "mbedcrypto", "http_parser", "ssh2", "crypto", "pcre2-8", "z"].flatMap {
    ["-Xlinker", "-l:lib\($0).a"]
  }
// libdeflate, which inflates pack entries for GitReader's pack reader, from its static archive too (libdeflate-dev
// brings it), so that a hook's start loads no library for it either.
let libdeflateStatic = ["-Xlinker", "-l:libdeflate.a"]
// The Swift runtime's C++ library, from its static archive when the runtime itself is linked in: `link/` holds a
// linker script named `libstdc++.so` that the `-lstdc++` of the runtime's link arguments finds first, and that
// names `libstdc++.a` (see the script). The shared libstdc++ cost every start 1.8 M of its 3.4 M instructions
// (`--version`), most of them the loader's symbol lookups relocating the library itself.
let libstdcxxStatic = ["-L\(Context.packageDirectory)/link"]
// A concrete generic type's metadata (a dictionary of `Day`s, say) is made through its accessor function, not
// looked up at run time by its mangled name: the lookup scans every protocol conformance of the executable to
// check the type's requirements, about 300 K instructions for each such type the first time, and a hook meets a
// dozen of them (15.7 M -> 13.4 M instructions per hook; the executable 42 KB larger).
let metadataAccessors: [SwiftSetting] = [
  .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])
]
// On macOS, Homebrew's shared libgit2 and libdeflate (Apple Silicon and Intel prefixes).
let homebrew = ["/opt/homebrew", "/usr/local"]

// The targets follow the data flow, so a backward dependency does not compile:
// Support -> GitReader -> Facts -> Journal, Narrative -> CLI -> gitjournal.
let package = Package(
  name: "gitjournal",
  products: [
    .executable(name: "gitjournal", targets: ["gitjournal"])
  ],
  targets: [
    // libgit2's headers. Not found through pkg-config: its `-lgit2` would come first on the link line and make the
    // executable load the shared library; GitReader links the library instead (see `libgit2Static`).
    .systemLibrary(
      name: "CLibgit2",
      providers: [.apt(["libgit2-dev"]), .brew(["libgit2"])]
    ),
    // libdeflate's header, in a module of its own: it is no part of libgit2, and a missing package is then named as
    // libdeflate's. No pkg-config for the same reason as libgit2's: GitReader links the static archive.
    .systemLibrary(
      name: "CLibdeflate",
      providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]
    ),
    // What libgit2 is linked with: stand-ins that fail closed for the parts gitjournal never uses.
    .target(name: "CLibgit2Link"),
    // posix_spawn with a new session and closed descriptors, for the detached narrator.
    .target(name: "CSystem"),
    // Files, locks, atomic writes, processes, the environment: nothing about git or journals.
    .target(name: "Support", dependencies: ["CSystem"], swiftSettings: metadataAccessors),
    // libgit2 handles, the history walk, line statistics and their caches.
    .target(
      name: "GitReader", dependencies: ["Support", "CLibgit2", "CLibgit2Link", "CLibdeflate", "CSystem"],
      cSettings: [.unsafeFlags(homebrew.flatMap { ["-I\($0)/include"] }, .when(platforms: [.macOS]))],
      swiftSettings: metadataAccessors + [
        .unsafeFlags(homebrew.flatMap { ["-Xcc", "-I\($0)/include"] }, .when(platforms: [.macOS]))
      ],
      linkerSettings: [
        .unsafeFlags(libgit2Static + libdeflateStatic, .when(platforms: [.linux])),
        .unsafeFlags(homebrew.flatMap { ["-L\($0)/lib"] } + ["-lgit2", "-ldeflate"], .when(platforms: [.macOS])),
        // zlib, whose bound on a compressed size limits the pack reader's reads (on Linux it comes with libgit2's
        // archives above).
        .linkedLibrary("z", .when(platforms: [.macOS])),
        // iconv, which decodes commit messages in legacy encodings (in the C library on Linux).
        .linkedLibrary("iconv", .when(platforms: [.macOS])),
      ]),
    // Days, the journal calendar, a day's facts and their signature.
    .target(name: "Facts", dependencies: ["GitReader", "Support"], swiftSettings: metadataAccessors),
    // The journal files: page, merge with the user's text, lock, atomic write.
    .target(name: "Journal", dependencies: ["Facts", "GitReader", "Support"], swiftSettings: metadataAccessors),
    // The optional sentence: prompt, engines, guard, cache, backoff.
    .target(name: "Narrative", dependencies: ["Facts", "GitReader", "Support"], swiftSettings: metadataAccessors),
    // Config parsing into typed settings, hooks, commands and terminal output.
    .target(
      name: "CLI", dependencies: ["Journal", "Narrative", "Facts", "GitReader", "Support"],
      swiftSettings: metadataAccessors),
    .executableTarget(
      name: "gitjournal", dependencies: ["CLI"], swiftSettings: metadataAccessors,
      linkerSettings: [.unsafeFlags(libstdcxxStatic, .when(platforms: [.linux]))]),
    .testTarget(
      name: "GitJournalTests",
      dependencies: ["CLI", "Journal", "Narrative", "Facts", "GitReader", "Support", "CLibgit2"],
      // Golden help texts, read from the source tree by path.
      exclude: ["CLI/Golden"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
