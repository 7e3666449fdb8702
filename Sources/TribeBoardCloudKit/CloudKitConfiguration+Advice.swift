import Foundation
import TribeBoardSupport

extension CloudKitConfiguration {
    /// This configuration as the flags of a command to print as advice, so that it reaches the
    /// same CloudKit in a shell without the TRIBEBOARD_CK_* variables or the settings file the
    /// advising run read: container, environment, key, endpoint. An app user's tokens are
    /// secrets and never printed; nothing when no remote is configured.
    package var adviceFlags: [String] {
        guard let keyID, let keyFile else { return [] }
        let opt = ShellWords.option
        var words =
            opt("--container", container) + opt("--environment", environment.rawValue)
            + opt("--key-id", keyID)
            + opt("--key-file", keyFile)
        if baseURL != Self.defaultBaseURL { words += opt("--ck-base-url", displayBaseURL) }
        return words
    }
}
