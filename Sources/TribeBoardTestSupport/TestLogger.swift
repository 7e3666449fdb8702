import Logging

/// The logger of in-process runs in tests: what a command logs is not what a test checks.
package enum TestLogger {
    package static let quiet = Logger(label: "tribeboard.tests") { _ in SwiftLogNoOpLogHandler() }
}
