/// A command's first word when it has several actions (`repos add`, `config set`), with what follows it.
struct ActionSpec: Sendable {
  let name: String
  let arguments: ArgumentKind

  init(_ name: String, arguments: ArgumentKind = .none) {
    self.name = name
    self.arguments = arguments
  }
}
