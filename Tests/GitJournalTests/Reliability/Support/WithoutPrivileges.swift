import Foundation

/// Runs programs the way an ordinary user's are run: subject to file permissions. Root ignores a folder's mode
/// (CAP_DAC_OVERRIDE), so when the tests run as root every child is started through `setpriv` with no
/// capabilities at all; as any other user nothing is needed.
enum WithoutPrivileges {
  /// The argument list that runs `executable` with `arguments` unprivileged, or nil when that cannot be done
  /// here (root without `setpriv`).
  static func command(_ executable: String, _ arguments: [String]) -> (executable: String, arguments: [String])? {
    guard geteuid() == 0 else { return (executable, arguments) }
    guard let setpriv else { return nil }
    return (setpriv, ["--inh-caps=-all", "--bounding-set=-all", "--", executable] + arguments)
  }

  static var isAvailable: Bool { geteuid() != 0 || setpriv != nil }

  static let unavailableReason = "running as root without setpriv: root is not bound by a folder's permissions"

  private static let setpriv: String? = ["/usr/bin/setpriv", "/bin/setpriv"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
}
