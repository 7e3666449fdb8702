import Foundation

/// A fresh folder per test, removed when the value goes away.
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String

    public init(_ label: String = "test") throws {
        let base = NSTemporaryDirectory() + "tribeboard-\(label)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        path = base
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    public func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Writes `text` as UTF-8 (optionally with a BOM) and returns the path.
    @discardableResult
    public func write(_ name: String, _ text: String, bom: Bool = false) throws -> String {
        var data = Data(bom ? [0xEF, 0xBB, 0xBF] : [])
        data.append(Data(text.utf8))
        try data.write(to: URL(fileURLWithPath: file(name)))
        return file(name)
    }
}
