/// The version of this package's programs and libraries: `streamd`, `streamctl` and `streambench`
/// print it for `--version`, and the daemon reports it in `STATS`.
///
/// Thread-safety: constants only.
public enum StreamdVersion {
    /// The release, as semantic versioning spells it.
    public static let current = "0.2.0"
}
