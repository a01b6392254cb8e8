import CSystem

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Starts a process that outlives its parent and holds nothing of it: its own session, standard streams on
/// /dev/null, no other inherited descriptors. GUI git clients wait until every copy of the hook's pipes is
/// closed, so a background child that kept them would make the commit look hung.
package enum DetachedProcess {
  @discardableResult
  package static func spawn(
    executable: String, arguments: [String], environment: [String: String], excluding excluded: Set<String> = []
  ) -> Bool {
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    // The variables given less `excluded`, without making a second dictionary of them.
    var envp: [UnsafeMutablePointer<CChar>?] = []
    envp.reserveCapacity(environment.count + 1)
    for (key, value) in environment where !excluded.contains(key) { envp.append(strdup(key + "=" + value)) }
    envp.append(nil)
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    return gitjournal_spawn_detached(executable, argv, envp) == 0
  }
}
