import GRDB
import TribeBoardDomain

/// A record inserted through a prepared `BoundStatement` (provision's bulk path, where GRDB's
/// per-call statement work was most of the writer's time: BENCHMARKS.md, "BoundStatement"). The
/// column list is the record's `CodingKeys` and each column's value comes from `bound(_:)`, one
/// exhaustive switch: a new column does not compile until the insert gives it a value.
/// `RecordInsertTests` holds the values to GRDB's own encoding of the same record.
protocol BoundInsertable {
    associatedtype CodingKeys: CodingKey & CaseIterable
    static var databaseTableName: String { get }
    func bound(_ column: CodingKeys) -> BindableValue
}

extension BoundInsertable {
    /// `INSERT INTO table (every column) VALUES (?, …)`, then `suffix` (an ON CONFLICT clause).
    static func insertSQL(_ suffix: String = "") -> String {
        let insert = "INSERT INTO \(databaseTableName) (\(columnList)) VALUES (\(placeholders))"
        return suffix.isEmpty ? insert : insert + " " + suffix
    }

    /// `INSERT OR IGNORE` of every column: a row a uniqueness or CHECK constraint refuses is left
    /// out rather than failing the statement, and so is one for which `condition` does not hold
    /// (its `?` are bound after the record's values).
    static func insertOrIgnoreSQL(onlyIf condition: String? = nil) -> String {
        let rows = condition.map { "SELECT \(placeholders) WHERE \($0)" } ?? "VALUES (\(placeholders))"
        return "INSERT OR IGNORE INTO \(databaseTableName) (\(columnList)) \(rows)"
    }

    private static var columnList: String { CodingKeys.allCases.map(\.stringValue).joined(separator: ", ") }
    private static var placeholders: String {
        Array(repeating: "?", count: CodingKeys.allCases.count).joined(separator: ", ")
    }

    /// The values of every column, in `insertSQL`'s order.
    var boundValues: [BindableValue] { CodingKeys.allCases.map(bound) }

    /// Inserts the record off the bulk path (a statement GRDB caches per connection).
    func insertRow(_ db: Database, _ suffix: String = "") throws {
        try BoundStatement(db, Self.insertSQL(suffix)).execute(boundValues)
    }
}

extension BindableValue {
    static func text<ID: TypedRecordID>(_ id: ID?) -> BindableValue { id.map { .text($0.rawValue) } ?? .null }
    static func text(_ time: Timestamp?) -> BindableValue { time.map { .text($0.text) } ?? .null }
    static func integer(_ value: Int?) -> BindableValue { value.map { .integer($0) } ?? .null }
    static func flag(_ value: Bool) -> BindableValue { .integer(value ? 1 : 0) }
}
