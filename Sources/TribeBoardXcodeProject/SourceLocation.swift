/// A place a finding comes from, shown as `path:line`.
package struct SourceLocation: Sendable, Codable, Equatable, CustomStringConvertible {
    package let path: String
    package let line: Int?

    package init(path: String, line: Int?) {
        self.path = path
        self.line = line
    }

    package var description: String { line.map { "\(path):\($0)" } ?? path }
}
