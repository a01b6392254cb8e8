/// gitjournal's version, for `--version` and the model requests' User-Agent.
public enum Version {
  public static let current = "0.1.0"
}
