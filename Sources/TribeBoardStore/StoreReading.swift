import GRDB

/// What every opened store can do: read. The read operations are extensions of this protocol;
/// the writes are extensions of `TribeBoardStore` alone, so a store opened to read
/// (`ReadOnlyStore`: audit without --repair, doctor, sheets, a dry run) has no write to call and
/// the compiler stops one.
package protocol StoreReading: Sendable {
    var path: String { get }
    /// The connection reads go through; its members are the store module's own.
    var connection: StoreConnection { get }
}

/// A store's GRDB reader, opaque outside the store module: every other module reads through the
/// store's intent-named operations.
package struct StoreConnection: Sendable {
    let reader: any DatabaseReader
}

extension StoreReading {
    var reader: any DatabaseReader { connection.reader }
}

/// A store opened without writing to it (no migration, no WAL checkpoint): `openReadOnly`.
package struct ReadOnlyStore: StoreReading {
    package let path: String
    package let connection: StoreConnection
}

extension TribeBoardStore: StoreReading {
    package var connection: StoreConnection { StoreConnection(reader: writer) }
}
