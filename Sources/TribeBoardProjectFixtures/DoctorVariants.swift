import Foundation
import TribeBoardTestSupport

/// Copies of doctor's fixtures changed in one place, so each test shows one rule on a project
/// otherwise known to be right. An edit whose text is not found throws: a variation that silently
/// changed nothing would let the test pass for the wrong reason.
package struct DoctorVariant {
    package struct EditNotFound: Error, CustomStringConvertible {
        package let file: String
        package let text: String
        package var description: String { "\(text) not found in \(file)" }
    }

    private let directory: TemporaryDirectory
    /// The copy's root folder (what `--project` is given).
    package let path: String

    /// A copy of `Tests/Fixtures/doctor/NAME` (`correct`, `real/Aidoku-Aidoku`...).
    package init(_ fixture: String) throws {
        directory = try TemporaryDirectory("doctor-variant")
        path = directory.file("project")
        try FileManager.default.copyItem(atPath: DoctorFixtures.project(fixture), toPath: path)
    }

    package func file(_ relative: String) -> String { path + "/" + relative }

    /// Replaces the first `text` in `relative` with `replacement`.
    package func edit(_ relative: String, replacing text: String, with replacement: String) throws {
        let contents = try String(contentsOfFile: file(relative), encoding: .utf8)
        guard let range = contents.range(of: text) else {
            throw EditNotFound(file: relative, text: text)
        }
        try contents.replacingCharacters(in: range, with: replacement).write(
            toFile: file(relative), atomically: true, encoding: .utf8)
    }

    /// Removes line `number` (1-based) of `relative`, or puts `replacement` in its place; returns
    /// the line it was.
    @discardableResult
    package func removeLine(_ number: Int, of relative: String, replacement: String? = nil) throws
        -> String
    {
        var lines = try String(contentsOfFile: file(relative), encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        guard number >= 1, number <= lines.count else {
            throw EditNotFound(file: relative, text: "line \(number)")
        }
        let removed = String(lines.remove(at: number - 1))
        if let replacement { lines.insert(Substring(replacement), at: number - 1) }
        try lines.joined(separator: "\n").write(
            toFile: file(relative), atomically: true, encoding: .utf8)
        return removed
    }

    /// Writes `text` at `relative`, making its folders.
    package func write(_ relative: String, _ text: String) throws {
        try FileManager.default.createDirectory(
            atPath: (file(relative) as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true)
        try text.write(toFile: file(relative), atomically: true, encoding: .utf8)
    }
}
