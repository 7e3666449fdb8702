import Foundation

extension Error {
    /// The error as a person reads it: its own message when it has one (`LocalizedError`), not
    /// the Swift value dump (`cannotOpen(path: …)`) that string interpolation of an enum prints.
    /// Others (GRDB's `DatabaseError`, Foundation's) describe themselves.
    package var readableDescription: String {
        if self is any LocalizedError { return localizedDescription }
        return String(describing: self)
    }
}
