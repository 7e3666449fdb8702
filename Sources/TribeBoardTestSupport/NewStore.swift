import Foundation

/// A store made the way an operator makes one on a new host before `migrate --apply` (only
/// `provision` creates a store; docs/migrate.md): the built `tribeboard provision` of a CSV of
/// only its header line, from standard input, as the missing-store advice prints it.
package enum NewStore {
    /// Creates the empty store `name` in `directory` (its QR folder is `tribeboard-out`, empty).
    package static func create(_ name: String = "s.sqlite", in directory: TemporaryDirectory)
        async throws
    {
        let tribeboard = ProcessRunner.executable("tribeboard")
        let line = "echo family_name | \(tribeboard) provision - --store \(name) -q"
        let result = try await ProcessRunner.runAsync("/bin/sh", ["-c", line], in: directory.path)
        guard result.status == 0, FileManager.default.fileExists(atPath: directory.file(name))
        else {
            throw NewStoreError(status: result.status, stderr: result.stderr)
        }
    }
}

package struct NewStoreError: Error, CustomStringConvertible {
    package let status: Int32
    package let stderr: String
    package var description: String { "provision of an empty store ended \(status): \(stderr)" }
}
