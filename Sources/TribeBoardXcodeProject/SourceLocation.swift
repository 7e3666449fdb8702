/// A place a finding comes from, shown as `path:line`.
public struct SourceLocation: Sendable, Codable, Equatable, CustomStringConvertible {
    public let path: String
    public let line: Int?

    public init(path: String, line: Int?) {
        self.path = path
        self.line = line
    }

    public var description: String { line.map { "\(path):\($0)" } ?? path }
}
