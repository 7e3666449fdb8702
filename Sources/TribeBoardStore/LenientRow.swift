import GRDB
import TribeBoardDomain

/// Column reads that never trap: GRDB's typed subscripts stop the process on a value of the wrong
/// type, and doctor, audit and resync read stores that may have been edited by hand or damaged.
/// Where a value is shown rather than acted on, an unreadable one is shown as "?".
extension Row {
    /// The stored value; NULL for a column the query does not have (the typed subscript traps).
    private func value(_ column: String) -> DatabaseValue {
        (self[column] as (any DatabaseValueConvertible)?)?.databaseValue ?? .null
    }

    package func text(_ column: String) -> String? {
        switch value(column).storage {
        case .string(let value): return value
        case .int64(let value): return String(value)
        case .double(let value): return String(value)
        case .blob, .null: return nil
        }
    }

    package func integer(_ column: String) -> Int? {
        switch value(column).storage {
        case .int64(let value): return Int(exactly: value)
        case .double(let value): return Int(exactly: value.rounded())
        case .string(let value): return Int(value)
        case .blob, .null: return nil
        }
    }

    /// The store's date text as a `Timestamp`; nil for a value that is no such date (a hand edit),
    /// which a report shows as unknown.
    package func timestamp(_ column: String) -> Timestamp? { text(column).flatMap(Timestamp.init(text:)) }

    /// A record id of the type the caller names, nil for a value that is not text.
    package func id<ID: TypedRecordID>(_ column: String) -> ID? { text(column).map(ID.init(rawValue:)) }

    /// The text, or "?" for a value that is not text (a blob, NULL): shown, never acted on.
    package func shown(_ column: String) -> String { text(column) ?? "?" }
}
