import CLI
import Support

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

exit(await CLI.main(arguments: Array(CommandLine.arguments.dropFirst()), environment: .current))
