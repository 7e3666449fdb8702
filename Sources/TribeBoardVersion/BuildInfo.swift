/// What `--version` prints on every executable: the release (the `VERSION` file) and the commit the
/// binary was built from, stamped at build time by the VersionStamp plugin.
public enum BuildInfo {
    public static let version = BuildStamp.version
    public static let commit = BuildStamp.commit
    /// `0.3.0 (commit 1a2b3c4d5e6f)`: the line a bug report needs.
    public static let versionLine = "\(BuildStamp.version) (commit \(BuildStamp.commit))"
}
