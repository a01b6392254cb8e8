import CFastStart
import CLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

gitjournal_fast_start_linked()
exit(await CLI.main(arguments: Array(CommandLine.arguments.dropFirst()), environment: .current))
