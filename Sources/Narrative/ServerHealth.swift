/// What a health check found. The narrator waits out a pause to try again only for a server that is there but
/// failed (it may be loading its model); nothing listening means no model server is installed or running, and
/// waiting for one would only keep a process alive for nothing.
public enum ServerHealth: Equatable, Sendable {
  case up
  /// No connection could be made.
  case unreachable
  /// Something answered, but not as a working server does (an error status, no complete answer in time).
  case failing
}
