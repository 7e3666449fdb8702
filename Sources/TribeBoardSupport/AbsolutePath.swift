import Foundation

/// A path as the working directory of this run reads it, made absolute: what the toolkit
/// prints as advice runs from any folder (cron mails it to someone in another one). Only `.`
/// components and doubled slashes go; `..` stays, since a symlinked folder's parent is not the
/// folder above it in the text.
package enum AbsolutePath {
    package static func of(
        _ path: String, from directory: String = FileManager.default.currentDirectoryPath
    ) -> String {
        guard !path.isEmpty else { return path }
        let joined = path.hasPrefix("/") ? path : directory + "/" + path
        let parts = joined.split(separator: "/", omittingEmptySubsequences: true).filter {
            $0 != "."
        }
        return "/" + parts.joined(separator: "/")
    }
}
