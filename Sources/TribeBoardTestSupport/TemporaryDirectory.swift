import Foundation

/// A fresh folder per test, removed when the value goes away.
package final class TemporaryDirectory: Sendable {
    package let path: String

    package init(_ label: String = "test") throws {
        let base = NSTemporaryDirectory() + "tribeboard-\(label)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        path = base
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    package func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Writes `text` as UTF-8 (optionally with a BOM) and returns the path.
    @discardableResult
    package func write(_ name: String, _ text: String, bom: Bool = false) throws -> String {
        var data = Data(bom ? [0xEF, 0xBB, 0xBF] : [])
        data.append(Data(text.utf8))
        try data.write(to: URL(fileURLWithPath: file(name)))
        return file(name)
    }
}
